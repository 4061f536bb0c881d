import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../../../test/hooks.test-support.ts';
import { startLoopbackServer } from '../../../../../test/loopback-server.test-support.ts';
import { ProviderError } from '../../provider.ts';
import { startVoiceSimulator } from './simulator/voice-simulator.ts';
import { createVoiceProvider } from './voice.provider.ts';
import { FAST_CALLS, startVoiceRig, torpedo, uniquePhone, type VoiceRig } from './voice.test-support.ts';

type Expected = { reason: string; retryable?: boolean; sentUnknown?: boolean };

async function failure(promise: Promise<unknown>): Promise<Expected> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  const { reason, options } = error as ProviderError;
  return { reason, ...options };
}

/** A stand-in carrier that answers each destination with a scripted status and body. */
function scriptedCarrier(answers: Record<string, [number, string]>) {
  return startLoopbackServer((_request, body, response) => {
    const [status, text] = answers[new URLSearchParams(body).get('To') ?? ''] ?? [500, ''];
    response.writeHead(status, { 'content-type': 'application/json' }).end(text);
  });
}

describe('calls API answers, mapped to ProviderError', () => {
  let rig: VoiceRig;
  openBeforeAll(startVoiceRig, (opened) => (rig = opened));

  it("maps the simulator's refusals like the real API's (code → VOICE_<code>, final)", async () => {
    const table: Array<[number, Expected]> = [
      [21211, { reason: 'VOICE_21211' }],
      [21214, { reason: 'VOICE_21214' }],
      [21215, { reason: 'VOICE_21215' }],
      [20429, { reason: 'VOICE_20429', retryable: true }],
    ];
    for (const [code, expected] of table) {
      const to = uniquePhone();
      rig.simulator.setOptions({ destinations: { [to]: { refuseWith: code } } });
      expect(await failure(rig.provider.submit(torpedo(to, { tts: 'Oi' }))), String(code)).toEqual(expected);
      expect(rig.simulator.counters().destinations[to], 'no call was placed').toBeUndefined();
    }
  });

  it('maps a wrong account or caller number', async () => {
    const to = uniquePhone();
    const base = { publicUrl: rig.app.publicUrl, mode: 'simulator' as const };
    const wrongToken = createVoiceProvider({ ...base, api: { ...rig.simulator.account, authToken: 'wrong' } });
    expect(await failure(wrongToken.submit(torpedo(to, { tts: 'Oi' })))).toEqual({ reason: 'VOICE_20003' });
    const wrongFrom = createVoiceProvider({ ...base, api: { ...rig.simulator.account, from: '+5511999999999' } });
    expect(await failure(wrongFrom.submit(torpedo(to, { tts: 'Oi' })))).toEqual({ reason: 'VOICE_21210' });
    expect(rig.simulator.counters().totals.refused).toBeGreaterThanOrEqual(2);
  });

  it('maps other answers by whether the call may exist', async () => {
    const table: Array<[[number, string], Expected]> = [
      [[429, '{"code":20429,"message":"Too Many Requests","status":429}'], { reason: 'VOICE_20429', retryable: true }],
      [[429, ''], { reason: 'VOICE_HTTP_429', retryable: true }],
      [[503, '<html>down</html>'], { reason: 'VOICE_HTTP_503', retryable: true }],
      [[500, '{"code":20500,"message":"Internal Server Error"}'], { reason: 'VOICE_20500', sentUnknown: true }],
      [[502, 'Bad Gateway'], { reason: 'VOICE_HTTP_502', sentUnknown: true }],
      [[400, 'not json'], { reason: 'VOICE_HTTP_400' }],
      [[400, '{"code":"21211"}'], { reason: 'VOICE_HTTP_400' }],
      [[404, '{"code":20404,"message":"not found"}'], { reason: 'VOICE_20404' }],
      [[201, '{"status":"queued"}'], { reason: 'VOICE_BAD_ANSWER', sentUnknown: true }],
      [[201, '{"sid":"CA<x>"}'], { reason: 'VOICE_BAD_ANSWER', sentUnknown: true }],
      [[201, 'garbage'], { reason: 'VOICE_BAD_ANSWER', sentUnknown: true }],
      [[202, '{"sid":"CA1"}'], { reason: 'VOICE_HTTP_202', sentUnknown: true }],
    ];
    const phones = table.map(() => uniquePhone());
    const carrier = await scriptedCarrier(Object.fromEntries(table.map(([answer], i) => [phones[i]!, answer])));
    const provider = createVoiceProvider({
      api: { ...rig.simulator.account, apiUrl: carrier.url },
      publicUrl: rig.app.publicUrl,
      mode: 'real',
      callsPerSecond: 10_000,
    });
    try {
      for (const [i, [answer, expected]] of table.entries()) {
        expect(await failure(provider.submit(torpedo(phones[i]!, { tts: 'Oi' }))), answer.join(' ')).toEqual(expected);
      }
      expect(provider.health().lastError?.message).toContain('VOICE_HTTP_202');
    } finally {
      await carrier.close();
    }
  });

  it('retries nothing that may have left: a timeout after sending is sentUnknown, and the call exists', async () => {
    const to = uniquePhone();
    rig.simulator.setOptions({ apiLatencyMs: 1500 });
    const hasty = createVoiceProvider({
      api: rig.simulator.account,
      publicUrl: rig.app.publicUrl,
      mode: 'simulator',
      requestTimeoutMs: 100,
    });
    try {
      expect(await failure(hasty.submit(torpedo(to, { tts: 'Oi' })))).toEqual({
        reason: 'VOICE_TIMEOUT',
        sentUnknown: true,
      });
      expect(hasty.health().connected).toBe(false);
    } finally {
      rig.simulator.setOptions({ apiLatencyMs: 0 });
      await rig.simulator.idle();
    }
    expect(rig.simulator.counters().destinations[to]?.calls).toBe(1);
  });

  it('says retryable when nothing is listening (the request never left)', async () => {
    const closed = await scriptedCarrier({});
    await closed.close();
    const provider = createVoiceProvider({
      api: { ...rig.simulator.account, apiUrl: closed.url },
      publicUrl: rig.app.publicUrl,
      mode: 'real',
    });
    expect(await failure(provider.submit(torpedo(uniquePhone(), { tts: 'Oi' })))).toEqual({
      reason: 'VOICE_UNREACHABLE',
      retryable: true,
    });
    expect(provider.health()).toMatchObject({
      connected: false,
      lastError: { message: expect.stringContaining('ECONNREFUSED') },
    });
  });
});

describe('calls per second', () => {
  /** A carrier allowing 5 calls a second, and a provider pacing itself at `callsPerSecond`. */
  async function pacedAt(callsPerSecond: number) {
    const simulator = await startVoiceSimulator({ ...FAST_CALLS, callsPerSecond: 5 });
    const provider = createVoiceProvider({
      api: simulator.account,
      publicUrl: 'http://127.0.0.1:1',
      mode: 'simulator',
      callsPerSecond,
    });
    return { simulator, provider };
  }

  it('never exceeds the carrier limit: every call accepted, none throttled (counted by the simulator)', async () => {
    const { simulator, provider } = await pacedAt(5);
    try {
      const calls = 15;
      const started = performance.now();
      const results = await Promise.allSettled(
        Array.from({ length: calls }, () => provider.submit(torpedo(uniquePhone(), { tts: 'Oi' }))),
      );
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `[voice] ${calls} calls paced at 5/s in ${seconds.toFixed(2)} s: ${(calls / seconds).toFixed(1)} calls/s`,
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(simulator.counters().totals).toMatchObject({ calls, throttled: 0 });
    } finally {
      await provider.close();
      await simulator.close();
    }
  });

  it('is a real limit: the same burst unpaced is throttled with a retryable 20429', async () => {
    const { simulator, provider } = await pacedAt(10_000);
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 15 }, () => provider.submit(torpedo(uniquePhone(), { tts: 'Oi' }))),
      );
      const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as ProviderError] : []));
      expect(refused.length).toBeGreaterThan(0);
      for (const error of refused) expect(error).toMatchObject({ reason: 'VOICE_20429', options: { retryable: true } });
      expect(simulator.counters().totals.throttled).toBe(refused.length);
    } finally {
      await provider.close();
      await simulator.close();
    }
  });
});
