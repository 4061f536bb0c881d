/**
 * Plays one simulated call the way a Twilio-compatible carrier does: status callbacks for the
 * subscribed events (initiated, ringing, answered) and always the final one, each signed with
 * X-Twilio-Signature; when answered, it fetches the TwiML from the call's `Url`, really fetches
 * each <Play> audio, presses the scripted key at a <Gather> (posting `Digits` to its action, signed)
 * and follows the TwiML that answer returns; then it hangs up with the call's duration.
 *
 * One deliberate difference: when the TwiML or an audio cannot be fetched or read, a real carrier
 * apologises to the person ("an application error has occurred") and the call still ends
 * `completed`; the simulator ends it `failed`, so a broken audio link fails a test instead.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sanitizeText } from '@ecoa/shared';
import { type FormParams, SIGNATURE_HEADER, twilioSignature } from '../twilio-signature.ts';
import type { CallOutcome } from './simulator-options.ts';
import { readTwiml, TwimlError, type TwimlVerb } from './twiml-reader.ts';

export type PlacedCall = {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  url: string;
  method: 'GET' | 'POST';
  statusCallback: string | undefined;
  statusCallbackMethod: 'GET' | 'POST';
  /** The subscribed events among initiated, ringing, answered (completed is always sent). */
  events: ReadonlySet<string>;
  outcome: CallOutcome;
  /** The keys pressed, one per <Gather> in turn; none left = silence. */
  keys: string[];
  ringMs: number;
  callMs: number;
};

/** What one destination saw, for tests and the control API (lists keep the last 20 entries). */
export type DestinationCounters = {
  calls: number;
  twimlFetched: number;
  audioFetched: number;
  digits: string[];
  said: string[];
  played: string[];
  /** Final statuses: completed, busy, no-answer, failed. */
  outcomes: Record<string, number>;
  /** Why calls failed on the simulator's side (bad TwiML, broken audio, callback refused). */
  problems: string[];
};

export type CallPlayerContext = {
  authToken: string;
  counters: DestinationCounters;
  /** A callback that Ecoa did not answer with 2xx (counted globally). */
  onCallbackRefused(): void;
  signal: AbortSignal;
};

const WEBHOOK_TIMEOUT_MS = 15_000;
const MAX_TWIML_BYTES = 64 * 1024;
const MAX_AUDIO_BYTES = 50 * 1024 * 1024;
const MAX_DOCUMENTS = 10;
/** The audio types Twilio's <Play> accepts. */
const AUDIO_TYPES = /^audio\/(mpeg|mp3|wav|wave|x-wav|aiff|x-aifc|x-aiff|x-gsm|gsm|ulaw|basic|ogg)\b/i;

export async function playCall(call: PlacedCall, ctx: CallPlayerContext): Promise<void> {
  let sequence = 0;
  const base: Array<[string, string]> = [
    ['AccountSid', call.accountSid],
    ['ApiVersion', '2010-04-01'],
    ['CallSid', call.sid],
    ['Called', call.to],
    ['Caller', call.from],
    ['Direction', 'outbound-api'],
    ['From', call.from],
    ['To', call.to],
  ];

  const callback = async (event: string, callStatus: string, extra: Array<[string, string]> = []) => {
    if (!call.statusCallback || (event !== 'completed' && !call.events.has(event))) return;
    const params: Array<[string, string]> = [
      ...base,
      ['CallStatus', callStatus],
      ['CallbackSource', 'call-progress-events'],
      ['SequenceNumber', String(sequence++)],
      ['Timestamp', new Date().toUTCString().replace('GMT', '+0000')],
      ...extra,
    ];
    const answer = await carrierRequest(ctx, call.statusCallback, call.statusCallbackMethod, params);
    if (answer.status < 200 || answer.status > 299) {
      ctx.onCallbackRefused();
      note(ctx, `status callback (${callStatus}) answered ${answer.status}`);
    }
  };
  const end = async (status: string, durationSeconds = 0) => {
    ctx.counters.outcomes[status] = (ctx.counters.outcomes[status] ?? 0) + 1;
    await callback('completed', status, [['CallDuration', String(durationSeconds)]]);
  };

  await callback('initiated', 'initiated');
  if (call.outcome === 'failed') return end('failed');
  if (call.outcome === 'busy') {
    await sleep(Math.min(call.ringMs, 500), undefined, { signal: ctx.signal });
    return end('busy');
  }
  await callback('ringing', 'ringing');
  await sleep(call.ringMs, undefined, { signal: ctx.signal });
  if (call.outcome === 'no-answer') return end('no-answer');

  const answeredAt = performance.now();
  await callback('answered', 'in-progress');
  const played = await runTwiml(call, ctx, [...base, ['CallStatus', 'in-progress']]);
  await sleep(call.callMs, undefined, { signal: ctx.signal });
  const duration = Math.max(1, Math.ceil((performance.now() - answeredAt) / 1000));
  await end(played ? 'completed' : 'failed', duration);
}

/** Runs the call's TwiML, following <Gather> actions; false when something could not be played. */
async function runTwiml(call: PlacedCall, ctx: CallPlayerContext, params: FormParams): Promise<boolean> {
  let next: { url: string; method: 'GET' | 'POST'; params: FormParams } | null = {
    url: call.url,
    method: call.method,
    params,
  };
  for (let documents = 0; next && documents < MAX_DOCUMENTS; documents++) {
    const answer = await carrierRequest(ctx, next.url, next.method, next.params, MAX_TWIML_BYTES);
    ctx.counters.twimlFetched++;
    if (answer.status !== 200) return fail(ctx, `TwiML ${next.url} answered ${answer.status}`);
    let verbs: TwimlVerb[];
    try {
      verbs = readTwiml(answer.body, next.url);
    } catch (error) {
      if (error instanceof TwimlError) return fail(ctx, `TwiML ${next.url}: ${error.message}`);
      throw error;
    }
    next = null;
    for (const verb of verbs) {
      if (verb.verb === 'Hangup') return true;
      if (verb.verb !== 'Gather') {
        if (!(await perform(verb, ctx))) return false;
        continue;
      }
      for (const prompt of verb.prompts) if (!(await perform(prompt, ctx))) return false;
      const key = call.keys.shift();
      if (key === undefined || key === '') continue; // silence: on to the next verb
      push(ctx.counters.digits, key);
      next = { url: verb.action, method: verb.method, params: [...params, ['Digits', key]] };
      break;
    }
  }
  return true;
}

async function perform(verb: Exclude<TwimlVerb, { verb: 'Gather' | 'Hangup' }>, ctx: CallPlayerContext) {
  if (verb.verb === 'Say') push(ctx.counters.said, verb.text);
  if (verb.verb !== 'Play') return true;
  push(ctx.counters.played, verb.url);
  try {
    const response = await fetch(verb.url, {
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
    });
    ctx.counters.audioFetched++;
    const type = response.headers.get('content-type') ?? '';
    const size = await drain(response, MAX_AUDIO_BYTES);
    if (response.status !== 200) return fail(ctx, `audio ${verb.url} answered ${response.status}`);
    if (!AUDIO_TYPES.test(type)) return fail(ctx, `audio ${verb.url} is ${type || 'untyped'}, not audio`);
    if (size === 0) return fail(ctx, `audio ${verb.url} is empty`);
    return true;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return fail(ctx, `audio ${verb.url}: ${(error as Error).message}`);
  }
}

/** A request the carrier makes to Ecoa, signed; GET carries the parameters in the query. */
async function carrierRequest(
  ctx: CallPlayerContext,
  url: string,
  method: 'GET' | 'POST',
  params: FormParams,
  maxBytes = MAX_TWIML_BYTES,
): Promise<{ status: number; body: Buffer }> {
  let target = url;
  if (method === 'GET') {
    const parsed = new URL(url);
    for (const [name, value] of params) parsed.searchParams.append(name, value);
    target = parsed.href;
  }
  const signature = twilioSignature(ctx.authToken, target, method === 'POST' ? params : []);
  try {
    const response = await fetch(target, {
      method,
      headers: {
        [SIGNATURE_HEADER]: signature,
        'i-twilio-idempotency-token': randomUUID(),
        'user-agent': 'TwilioProxy/1.1',
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' } : {}),
      },
      body: method === 'POST' ? new URLSearchParams(params as Array<[string, string]>).toString() : undefined,
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
    });
    const chunks: Buffer[] = [];
    await drain(response, maxBytes, chunks);
    return { status: response.status, body: Buffer.concat(chunks) };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    note(ctx, `${method} ${url.slice(0, 120)}: ${(error as Error).message}`);
    return { status: 0, body: Buffer.alloc(0) };
  }
}

/** Reads a response to its end (keeping up to `max` bytes in `keep`); the size read. */
async function drain(response: Response, max: number, keep?: Buffer[]): Promise<number> {
  if (!response.body) return 0;
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return size;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return size;
    }
    keep?.push(Buffer.from(value));
  }
}

function fail(ctx: CallPlayerContext, problem: string): false {
  note(ctx, problem);
  return false;
}

function note(ctx: CallPlayerContext, problem: string): void {
  push(ctx.counters.problems, sanitizeText(problem).slice(0, 300));
}

function push(list: string[], value: string): void {
  list.push(value);
  if (list.length > 20) list.shift();
}
