import { beforeEach, describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../../../test/hooks.test-support.ts';
import { ProviderError, type StatusEvent } from '../../provider.ts';
import { CALL_PHRASES } from './twiml.ts';
import { createVoiceProvider } from './voice.provider.ts';
import { startVoiceRig, torpedo, uniquePhone, ura, type VoiceRig } from './voice.test-support.ts';

/** The voice adapter against its simulator over real HTTP: calls placed, played and reported. */
describe('voice provider (torpedo and URA) against the calls simulator', () => {
  let rig: VoiceRig;
  openBeforeAll(startVoiceRig, (opened) => (rig = opened));
  beforeEach(() => {
    rig.simulator.setOptions({ destinations: {} });
  });

  /** Places the call and waits until the carrier has played it to the end. */
  async function place(message: Parameters<VoiceRig['provider']['submit']>[0]) {
    const { providerMessageIds } = await rig.provider.submit(message);
    expect(providerMessageIds).toHaveLength(1);
    await rig.simulator.idle();
    const callSid = providerMessageIds[0]!;
    return { callSid, events: rig.eventsOf(callSid), seen: rig.simulator.counters().destinations[message.to]! };
  }

  const statuses = (events: StatusEvent[]) => events.map((e) => e.status);

  it('plays a torpedo audio: TwiML and audio fetched, sent → delivered with the call duration', async () => {
    const to = uniquePhone();
    const audioUrl = `${rig.app.publicUrl}/audios/greeting.mp3?expires=1900000000&sig=a%2Bb`;
    const { callSid, events, seen } = await place(torpedo(to, { audioUrl }));

    expect(callSid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(seen).toMatchObject({ calls: 1, twimlFetched: 1, audioFetched: 1, played: [audioUrl], problems: [] });
    expect(seen.outcomes).toEqual({ completed: 1 });
    // initiated, ringing, answered (in-progress), completed.
    expect(statuses(events)).toEqual(['sent', 'sent', 'sent', 'delivered']);
    const delivered = events.at(-1)!;
    expect(Number.isInteger(delivered.detail?.durationSeconds)).toBe(true);
    expect(delivered.detail!.durationSeconds).toBeGreaterThanOrEqual(1);
    expect(delivered).toMatchObject({ type: 'status', provider: 'voice', providerMessageId: callSid });
    expect(delivered.reason).toBeUndefined();
  });

  it('says a TTS torpedo in pt-BR, XML special characters escaped and heard exactly as written', async () => {
    const to = uniquePhone();
    const tts = `Olá <Maria> & "João": promoção d'Ávila ]]> até 10/12!`;
    const { events, seen } = await place(torpedo(to, { tts }));

    expect(seen).toMatchObject({ twimlFetched: 1, audioFetched: 0, said: [tts], problems: [] });
    expect(statuses(events)).toEqual(['sent', 'sent', 'sent', 'delivered']);
  });

  it('reports the key pressed in an URA menu, then delivered', async () => {
    const to = uniquePhone();
    rig.simulator.setOptions({ destinations: { [to]: { keys: '2' } } });
    const { events, seen } = await place(
      ura(to, { tts: 'Para confirmar tecle 1, para cancelar tecle 2.' }, ['1', '2']),
    );

    expect(seen.digits).toEqual(['2']);
    expect(seen.twimlFetched).toBe(2); // the menu, then the action's answer
    expect(seen.said).toEqual(['Para confirmar tecle 1, para cancelar tecle 2.', CALL_PHRASES.thanks]);
    expect(statuses(events)).toEqual(['sent', 'sent', 'sent', 'sent', 'delivered']);
    const withDigits = events.filter((e) => e.detail?.digits !== undefined);
    expect(withDigits).toHaveLength(1);
    expect(withDigits[0]!.detail).toEqual({ digits: '2' });
    expect(events.at(-1)!.detail?.durationSeconds).toBeGreaterThanOrEqual(1);
  });

  it('asks an URA twice when no key is pressed, says goodbye, and reports no digits', async () => {
    const to = uniquePhone();
    rig.simulator.setOptions({ destinations: { [to]: { keys: '' } } });
    const audioUrl = `${rig.app.publicUrl}/audios/greeting.mp3`;
    const { events, seen } = await place(ura(to, { audioUrl }, ['1']));

    expect(seen).toMatchObject({ digits: [], twimlFetched: 1, audioFetched: 2, said: [CALL_PHRASES.noAnswer] });
    expect(events.some((e) => e.detail?.digits !== undefined)).toBe(false);
    expect(statuses(events)).toEqual(['sent', 'sent', 'sent', 'delivered']);
  });

  it('reports a key the menu does not accept too, and asks once more', async () => {
    const to = uniquePhone();
    rig.simulator.setOptions({ destinations: { [to]: { keys: '91' } } });
    const { events, seen } = await place(ura(to, { tts: 'Tecle 1.' }, ['1']));

    expect(seen.digits).toEqual(['9', '1']);
    expect(seen.said).toEqual(['Tecle 1.', CALL_PHRASES.invalidOption, 'Tecle 1.', CALL_PHRASES.thanks]);
    expect(events.flatMap((e) => (e.detail?.digits ? [e.detail.digits] : []))).toEqual(['9', '1']);
    expect(events.at(-1)!.status).toBe('delivered');
  });

  it('fails busy, unanswered and failed calls with their reason', async () => {
    const cases = [
      { to: uniquePhone(), outcome: 'busy', reason: 'VOICE_BUSY' },
      { to: uniquePhone(), outcome: 'no-answer', reason: 'VOICE_NO_ANSWER' },
      { to: uniquePhone(), outcome: 'failed', reason: 'VOICE_FAILED' },
    ] as const;
    rig.simulator.setOptions({
      destinations: Object.fromEntries(cases.map((c) => [c.to, { outcome: c.outcome }])),
    });
    const placed = await Promise.all(cases.map((c) => rig.provider.submit(torpedo(c.to, { tts: 'Oi' }))));
    await rig.simulator.idle();

    cases.forEach((c, i) => {
      const events = rig.eventsOf(placed[i]!.providerMessageIds[0]!);
      const last = events.at(-1)!;
      expect(last, c.outcome).toMatchObject({ status: 'failed', reason: c.reason });
      expect(last.detail).toBeUndefined();
      expect(
        events.filter((e) => e.status !== 'sent'),
        c.outcome,
      ).toHaveLength(1);
      const seen = rig.simulator.counters().destinations[c.to]!;
      expect(seen.twimlFetched, c.outcome).toBe(0);
    });
  });

  it('fails a call whose audio link is broken or not audio', async () => {
    for (const [file, problem] of [
      ['missing.mp3', 'answered 404'],
      ['page.mp3', 'text/html'],
    ] as const) {
      const to = uniquePhone();
      const { events, seen } = await place(torpedo(to, { audioUrl: `${rig.app.publicUrl}/audios/${file}` }));
      expect(events.at(-1), file).toMatchObject({ status: 'failed', reason: 'VOICE_FAILED' });
      expect(seen.problems.join('\n'), file).toContain(problem);
    }
  });

  it('refuses content it cannot play before any call is made', async () => {
    const to = uniquePhone();
    const refusals = [
      [torpedo(to, { tts: '   ' }), 'VOICE_TTS_INVALID'],
      [torpedo(to, { tts: 'x'.repeat(3001) }), 'VOICE_TTS_INVALID'],
      [torpedo(to, { audioUrl: 'file:///etc/passwd' }), 'VOICE_AUDIO_URL_INVALID'],
      [ura(to, { tts: 'Menu' }, ['10']), 'VOICE_MENU_INVALID'],
      [torpedo('11912345678', { tts: 'Oi' }), 'VOICE_TO_INVALID'],
      [{ ...torpedo(to, { tts: 'Oi' }), channel: 'ura' as const }, 'VOICE_CONTENT_INVALID'],
    ] as const;
    for (const [message, reason] of refusals) {
      const error = await rig.provider.submit(message).catch((e: unknown) => e);
      expect(error, reason).toBeInstanceOf(ProviderError);
      expect(error as ProviderError).toMatchObject({ reason, options: {} });
    }
    expect(rig.simulator.counters().destinations[to]).toBeUndefined();
  });

  it('keeps nothing per call: another provider instance (a restart) answers the rest of the call', async () => {
    const to = uniquePhone();
    rig.simulator.setOptions({ ringMs: 300, destinations: { [to]: { keys: '1' } } });
    const { providerMessageIds } = await rig.provider.submit(ura(to, { tts: 'Tecle 1.' }, ['1']));
    const restarted = createVoiceProvider({
      api: rig.simulator.account,
      publicUrl: rig.app.publicUrl,
      mode: 'simulator',
    });
    const afterRestart: StatusEvent[] = [];
    restarted.onEvent(async (e) => {
      if (e.type === 'status') afterRestart.push(e);
    });
    rig.app.replace(restarted);
    try {
      await rig.simulator.idle();
    } finally {
      rig.app.replace(rig.provider);
      rig.simulator.setOptions({ ringMs: 0 });
      await restarted.close();
    }
    // The menu was fetched, the key reported and the call completed by the new instance alone.
    const callSid = providerMessageIds[0]!;
    const tail = afterRestart.filter((e) => e.providerMessageId === callSid && e.detail);
    expect(tail.map((e) => [e.status, e.detail])).toEqual([
      ['sent', { digits: '1' }],
      ['delivered', { durationSeconds: expect.any(Number) }],
    ]);
    expect(rig.eventsOf(callSid).filter((e) => e.detail)).toEqual([]);
    expect(rig.simulator.counters().destinations[to]).toMatchObject({ digits: ['1'], problems: [] });
  });

  it('reports its health', () => {
    expect(rig.provider.health()).toMatchObject({
      provider: 'voice',
      mode: 'simulator',
      connected: true,
      tpsLimit: 10_000,
      inFlight: 0,
    });
  });
});
