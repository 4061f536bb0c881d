import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import type { Channel } from '@ecoa/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { injectAs } from '../../../test/http.test-support.ts';
import { createTestServer, openTestDb } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import { createLogger } from '../../platform/logger.ts';
import { PacedTurns } from '../../platform/pacing/paced-turns.ts';
import type { RunningServer } from '../../server.ts';
import { userWithCredits } from '../channels/channels.test-support.ts';
import { createInflightSubmits } from '../channels/inflight-submits.ts';
import {
  type ChannelProvider,
  type OutboundContent,
  type OutboundMessage,
  ProviderError,
  type SubmitOptions,
  type SubmitResult,
  submitStopped,
} from '../channels/provider.ts';
import { createOptOutsRepository } from '../opt-outs/opt-outs.repository.ts';
import { createHandOver, type HandOverDeps, type Pace, sleepUnlessStopped } from './campaigns.handover.ts';
import type { ClaimedRecipient } from './campaigns.repository.ts';
import type { CampaignRow } from './campaigns.schema.ts';
import { scriptedHealth } from './campaigns.settle.test-support.ts';
import { mobile, uploadAudio } from './campaigns.test-support.ts';

/** What the carrier does with one submit: take it (the default), refuse it, or run a step first. */
type Answer = Error | ((message: OutboundMessage) => void);

/** A carrier that answers each recipient's submits from a script, in order; an unscripted submit is taken. */
class ScriptedAnswers implements ChannelProvider {
  readonly name = 'scripted';
  readonly channels: readonly Channel[] = ['sms_short', 'voice_torpedo'];
  readonly webhooks = [];
  readonly submits: OutboundMessage[] = [];
  /** The stop signal each submit was given (a provider drops what it has not written when it fires). */
  readonly signals: (AbortSignal | undefined)[] = [];
  constructor(private readonly script: Record<string, Answer[]> = {}) {}
  async submit(message: OutboundMessage, options?: SubmitOptions): Promise<SubmitResult> {
    this.submits.push(message);
    this.signals.push(options?.signal);
    const answer = this.script[message.id]?.shift();
    if (answer instanceof Error) throw answer;
    answer?.(message);
    return { providerMessageIds: [`sc-${message.id}`] };
  }
  onEvent(): void {}
  health() {
    return scriptedHealth(this.name, 0);
  }
  async close(): Promise<void> {}
  submitsOf(id: string): number {
    return this.submits.filter((m) => m.id === id).length;
  }
}

const SMS: OutboundContent = { kind: 'sms', text: 'Oi', flash: false };
const throttled = () => new ProviderError('SCRIPTED_THROTTLED', 'try later', { retryable: true });

const logs: { level: number; msg: string; messageId?: string; campaignId?: string }[] = [];
const logger = createLogger('info', false, { write: (line: string) => void logs.push(JSON.parse(line)) });
const inflights = createInflightSubmits({ ordinary: async () => ({ applied: false }) as never });
const recipient = (content: OutboundContent = SMS, parts = 1): ClaimedRecipient => ({
  id: randomUUID(),
  toPhone: mobile(),
  parts,
  content,
});
const rowOf = (userId: string, channel: Channel = 'sms_short') =>
  ({ id: randomUUID(), userId, channel }) as CampaignRow;

/** The hand-over of one batch with these opt-outs and audio links. */
function handOverWith(deps: Pick<HandOverDeps, 'optOuts' | 'audioUrl'>) {
  const handOver = createHandOver({ ...deps, logger, timeOptOuts: (work) => work() });
  return (
    row: CampaignRow,
    carrier: ScriptedAnswers,
    claimed: ClaimedRecipient[],
    options: { signal?: AbortSignal; paces?: (Pace | null)[] } = {},
  ) =>
    handOver(row, carrier, claimed, {
      signal: options.signal ?? new AbortController().signal,
      inflight: inflights.batch(),
      paces: options.paces ?? [null],
    });
}

/** The carrier's answers, the stop and the paces, on a bare database (the user has no opt-outs). */
describe('campaign hand-over', () => {
  let db: DbHandle;
  openBeforeAll(openTestDb, (opened) => (db = opened));
  const someone = randomUUID();
  const hand = handOverWith({
    optOuts: { optedOut: (userId, phones) => createOptOutsRepository(db).which(userId, phones) },
    audioUrl: () => Promise.reject(new Error('these recipients have no audio')),
  });

  it('tries a "try later" again, three submits in all, then gives the recipient back with the reason', async () => {
    const refused = recipient();
    const second = recipient();
    const carrier = new ScriptedAnswers({
      [refused.id]: [throttled(), throttled(), throttled(), () => {}],
      [second.id]: [throttled()],
    });
    expect(await hand(rowOf(someone), carrier, [refused, second])).toEqual([
      { id: refused.id, parts: 1, kind: 'retry', reason: 'SCRIPTED_THROTTLED', message: 'try later' },
      { id: second.id, parts: 1, kind: 'sent', providerIds: [`sc-${second.id}`] },
    ]);
    expect(carrier.submitsOf(refused.id)).toBe(3);
    expect(carrier.submitsOf(second.id)).toBe(2);
  });

  it('settles a refusal, a "maybe sent" and a broken answer at once, never submitting them again', async () => {
    const [refused, maybe, broken] = [recipient(), recipient(SMS, 2), recipient()] as const;
    const carrier = new ScriptedAnswers({
      [refused.id]: [new ProviderError('SCRIPTED_REJECTED', 'no such number')],
      [maybe.id]: [
        new ProviderError('SCRIPTED_TIMEOUT', 'no answer', {
          sentUnknown: true,
          retryable: true,
          providerMessageIds: ['sc-part-1'],
        }),
      ],
      [broken.id]: [new TypeError('the answer could not be read')],
    });
    expect(await hand(rowOf(someone), carrier, [refused, maybe, broken])).toEqual([
      { id: refused.id, parts: 1, kind: 'failed', reason: 'SCRIPTED_REJECTED' },
      { id: maybe.id, parts: 2, kind: 'unknown', reason: 'SCRIPTED_TIMEOUT', providerIds: ['sc-part-1'] },
      { id: broken.id, parts: 1, kind: 'unknown', reason: 'INTERNAL' },
    ]);
    for (const r of [refused, maybe, broken]) expect(carrier.submitsOf(r.id)).toBe(1);
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 50, messageId: broken.id, msg: 'campaign submit failed unexpectedly' }),
    );
  });

  it('hands nothing over once the sending stopped, and gives back what the stop kept from the carrier', async () => {
    const stopped = new AbortController();
    stopped.abort();
    const never = recipient();
    const carrier = new ScriptedAnswers();
    expect(await hand(rowOf(someone), carrier, [never], { signal: stopped.signal })).toEqual([
      { id: never.id, parts: 1, kind: 'unsent', reason: 'SUBMIT_STOPPED' },
    ]);
    expect(carrier.submits).toEqual([]);

    // The provider says the stop came before it wrote the request: not tried again.
    const dropped = recipient();
    const dropping = new ScriptedAnswers({ [dropped.id]: [submitStopped('scripted')] });
    expect(await hand(rowOf(someone), dropping, [dropped])).toEqual([
      { id: dropped.id, parts: 1, kind: 'unsent', reason: 'SUBMIT_STOPPED' },
    ]);
    expect(dropping.submitsOf(dropped.id)).toBe(1);

    // A "try later" answered after the stop: given back, not tried again.
    const late = new AbortController();
    const refused = recipient();
    const stopping = new ScriptedAnswers({
      [refused.id]: [
        () => {
          late.abort();
          throw throttled();
        },
      ],
    });
    expect(await hand(rowOf(someone), stopping, [refused], { signal: late.signal })).toEqual([
      { id: refused.id, parts: 1, kind: 'unsent', reason: 'SUBMIT_STOPPED' },
    ]);
    expect(stopping.submitsOf(refused.id)).toBe(1);
    // The provider had the stop signal too (it drops a request it has not written when it fires).
    expect(stopping.signals).toHaveLength(1);
    expect(stopping.signals[0]).toBe(late.signal);

    // Stopped during the pause before another try: that try never happens.
    const pausing = new AbortController();
    const waiting = recipient();
    const slow = new ScriptedAnswers({
      [waiting.id]: [
        () => {
          setTimeout(() => pausing.abort(), 20);
          throw throttled();
        },
      ],
    });
    expect(await hand(rowOf(someone), slow, [waiting], { signal: pausing.signal })).toEqual([
      { id: waiting.id, parts: 1, kind: 'unsent', reason: 'SUBMIT_STOPPED' },
    ]);
    expect(slow.submitsOf(waiting.id)).toBe(1);
  });

  it("keeps the paces: a wait the stop ends gives the recipient back unsent, a closed pace's error to retry", async () => {
    const stopped = new AbortController();
    stopped.abort();
    const pace = new PacedTurns(1);
    const first = recipient();
    const carrier = new ScriptedAnswers();
    expect(await hand(rowOf(someone), carrier, [first], { signal: stopped.signal, paces: [null, pace] })).toEqual([
      { id: first.id, parts: 1, kind: 'unsent', reason: 'SUBMIT_STOPPED' },
    ]);

    pace.close(() => new Error('the carrier is closing'));
    const second = recipient();
    expect(await hand(rowOf(someone), carrier, [second], { paces: [pace] })).toEqual([
      { id: second.id, parts: 1, kind: 'retry', reason: 'DISPATCH_ERROR', message: 'the carrier is closing' },
    ]);
    expect(carrier.submits).toEqual([]);
  });

  it('gives the whole batch back to retry when the opt-outs cannot be read', async () => {
    const carrier = new ScriptedAnswers();
    const claimed = [recipient(), recipient(SMS, 3)];
    // A user id the database cannot even compare: the opt-outs query fails.
    const row = rowOf('not-a-user-id');
    const outcomes = await hand(row, carrier, claimed);
    expect(outcomes).toEqual(
      claimed.map((c) => ({
        id: c.id,
        parts: c.parts,
        kind: 'retry',
        reason: 'DISPATCH_ERROR',
        message: expect.stringMatching(/uuid/i),
      })),
    );
    expect(carrier.submits).toEqual([]);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 40,
        campaignId: row.id,
        msg: 'opt-outs not read: the batch goes back to the queue',
      }),
    );
  });
});

/** With the account's opt-outs and audio links: the server's own services. */
describe('campaign hand-over on the server', () => {
  let server: RunningServer;
  openBeforeAll(
    () => createTestServer(),
    (opened) => (server = opened),
  );
  let audioSignatures = 0;
  const hand = handOverWith({
    optOuts: { optedOut: (userId, phones) => server.modules.optOuts.optedOut(userId, phones) },
    audioUrl: (userId, audioId) => {
      audioSignatures++;
      return server.modules.audios.playbackUrl(userId, audioId);
    },
  });

  it('hands each recipient over once, tracks its carrier ids for early receipts, and skips an opted-out number', async () => {
    const user = await userWithCredits(server, 1);
    const sent = recipient();
    const left = recipient(SMS, 2);
    const optOut = await injectAs(server, user.token, {
      method: 'POST',
      url: '/api/v1/opt-outs',
      payload: { phones: [left.toPhone] },
    });
    expect(optOut.statusCode, optOut.body).toBeLessThan(300);
    const carrier = new ScriptedAnswers();
    expect(await hand(rowOf(user.id), carrier, [sent, left])).toEqual([
      { id: sent.id, parts: 1, kind: 'sent', providerIds: [`sc-${sent.id}`] },
      { id: left.id, parts: 2, kind: 'opted_out', reason: 'OPTED_OUT' },
    ]);
    expect(carrier.submits).toEqual([{ id: sent.id, channel: 'sms_short', to: sent.toPhone, content: SMS }]);
    // A receipt that beats the settle rides with the batch that submitted it.
    const receipt = (id: string) => ({
      type: 'status' as const,
      provider: 'scripted',
      providerMessageId: id,
      status: 'delivered' as const,
      at: new Date(),
    });
    expect(inflights.offer(receipt(`sc-${sent.id}`))).toBeDefined();
    expect(inflights.offer(receipt(`sc-${left.id}`))).toBeUndefined();
  });

  it('signs each audio once per batch for its calls, and gives back a recipient whose audio is gone', async () => {
    const user = await userWithCredits(server, 1);
    const audioId = await uploadAudio(server, user.token);
    const voice = (id: string): OutboundContent => ({ kind: 'voice', prompt: { audioUrl: `audio:${id}` } });
    const [one, two, gone] = [recipient(voice(audioId)), recipient(voice(audioId)), recipient(voice(randomUUID()))];
    const carrier = new ScriptedAnswers();
    audioSignatures = 0;
    expect(await hand(rowOf(user.id, 'voice_torpedo'), carrier, [one, two, gone])).toEqual([
      { id: one.id, parts: 1, kind: 'sent', providerIds: [`sc-${one.id}`] },
      { id: two.id, parts: 1, kind: 'sent', providerIds: [`sc-${two.id}`] },
      { id: gone.id, parts: 1, kind: 'retry', reason: 'AUDIO_NOT_FOUND', message: expect.any(String) },
    ]);
    expect(audioSignatures).toBe(2);
    const urls = carrier.submits.map((m) => (m.content.kind === 'voice' ? m.content.prompt : null));
    expect(urls).toEqual([
      { audioUrl: expect.stringMatching(/\/api\/v1\/audios\/play\/[^/]+$/) },
      { audioUrl: expect.stringMatching(/\/api\/v1\/audios\/play\/[^/]+$/) },
    ]);
  });
});

/** The pause between two tries of a "try later", on Vitest's fake timers (nothing waits for real). */
describe('the pause before another try', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const settledYet = (promise: Promise<void>) => {
    let settled = false;
    void promise.then(() => {
      settled = true;
    });
    return () => settled;
  };

  it('ends when the sending stops, long before its time, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const ended = settledYet(sleepUnlessStopped(60_000, stop.signal));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ended()).toBe(false);
    stop.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(ended()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends at its time otherwise, and stops listening to the signal', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const ended = settledYet(sleepUnlessStopped(500, stop.signal));
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(ended()).toBe(true);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});
