/**
 * A Twilio-compatible calls API on loopback, used by default and in tests so the real voice
 * adapter always runs. It checks what a carrier checks (HTTP Basic, the account, the form),
 * answers like the real API (201 with the call resource, errors as `{code, message, more_info,
 * status}`), limits calls per second (429, code 20429, above it), and plays each call
 * (call-player.ts) with the configured latencies and outcome mix.
 *
 * Control: `counters()`, `reset()`, `setOptions()`, and the same over HTTP:
 * `GET /__simulator/counters`, `POST /__simulator/reset`, `POST /__simulator/options` (JSON).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { pickWeighted } from '../../http-kit/simulator-kit.ts';
import { parseForm } from '../twilio-signature.ts';
import { type DestinationCounters, type PlacedCall, playCall } from './call-player.ts';
import {
  type CallOutcome,
  VOICE_SIMULATOR_DEFAULTS,
  type VoiceSimulatorOptions,
  voiceSimulatorOptionsSchema,
} from './simulator-options.ts';

export type VoiceSimulatorCounters = {
  destinations: Record<string, DestinationCounters>;
  /** Creates accepted, refused with 429, refused otherwise; calls still playing; callbacks Ecoa refused. */
  totals: {
    calls: number;
    duplicates: number;
    throttled: number;
    refused: number;
    active: number;
    callbacksRefused: number;
  };
};

export type VoiceSimulator = {
  /** The API's base URL (what VOICE_API_URL would be). */
  url: string;
  /** What the voice provider needs to use this simulator as its carrier. */
  account: { apiUrl: string; accountSid: string; authToken: string; from: string };
  counters(): VoiceSimulatorCounters;
  reset(): void;
  setOptions(options: Partial<VoiceSimulatorOptions>): void;
  options(): VoiceSimulatorOptions;
  /** Resolves when no call is playing (each call ends with its final status callback). */
  idle(): Promise<void>;
  close(): Promise<void>;
};

const MAX_DESTINATIONS = 100_000;

const ERRORS: Record<number, { status: number; message: string }> = {
  20003: { status: 401, message: 'Authenticate' },
  20404: { status: 404, message: 'The requested resource was not found' },
  20429: { status: 429, message: 'Too Many Requests' },
  21201: { status: 400, message: "No 'To' number is specified" },
  21205: { status: 400, message: 'Url parameter is required' },
  21210: { status: 400, message: "'From' phone number not verified" },
  21211: { status: 400, message: "Invalid 'To' Phone Number" },
  21213: { status: 400, message: "No 'From' number is specified" },
  21214: { status: 400, message: "'To' phone number cannot be reached" },
  21215: { status: 400, message: 'Account not authorized to call this number: check your Geo Permissions' },
};

export async function startVoiceSimulator(given: Partial<VoiceSimulatorOptions> = {}): Promise<VoiceSimulator> {
  let options: VoiceSimulatorOptions = { ...VOICE_SIMULATOR_DEFAULTS, ...given };
  let destinations = new Map<string, DestinationCounters>();
  const totals = { calls: 0, duplicates: 0, throttled: 0, refused: 0, active: 0, callbacksRefused: 0 };
  const playing = new Set<Promise<void>>();
  const stop = new AbortController();
  // A token bucket holding one second's calls: a steady client never meets it, a burst does.
  let tokens = options.callsPerSecond;
  let refilledAt = performance.now();

  function takeToken(): boolean {
    const now = performance.now();
    tokens = Math.min(options.callsPerSecond, tokens + ((now - refilledAt) / 1000) * options.callsPerSecond);
    refilledAt = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  }

  function countersOf(to: string): DestinationCounters {
    let counters = destinations.get(to);
    if (!counters) {
      // A long-running simulator (npm run simulators) forgets its oldest destinations.
      if (destinations.size >= MAX_DESTINATIONS) destinations.delete(destinations.keys().next().value!);
      counters = {
        calls: 0,
        twimlFetched: 0,
        audioFetched: 0,
        digits: [],
        said: [],
        played: [],
        outcomes: {},
        problems: [],
      };
      destinations.set(to, counters);
    }
    return counters;
  }

  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post<{ Params: { accountSid: string } }>(
    '/2010-04-01/Accounts/:accountSid/Calls.json',
    async (request, reply) => {
      const error = (code: number) => {
        if (code === 20429) totals.throttled++;
        else totals.refused++;
        const known = ERRORS[code] ?? { status: 400, message: `Error ${code}` };
        return reply.code(known.status).send({
          code,
          message: known.message,
          more_info: `https://www.twilio.com/docs/errors/${code}`,
          status: known.status,
        });
      };
      const [user, password] = basicCredentials(request.headers.authorization);
      if (user !== options.accountSid || password !== options.authToken) return error(20003);
      if (request.params.accountSid !== options.accountSid) return error(20404);
      if (!takeToken()) return error(20429);

      const form = parseForm(typeof request.body === 'string' ? request.body : '');
      const field = (name: string) => form.find(([key]) => key === name)?.[1];
      const to = field('To');
      const from = field('From');
      const url = field('Url');
      if (!to) return error(21201);
      if (!/^\+[1-9]\d{7,14}$/.test(to)) return error(21211);
      if (!from) return error(21213);
      if (from !== options.from) return error(21210);
      if (!url || !isHttpUrl(url)) return error(21205);
      const script = options.destinations[to];
      if (script?.refuseWith) return error(script.refuseWith);
      const statusCallback = field('StatusCallback');
      if (statusCallback !== undefined && !isHttpUrl(statusCallback)) return error(21205);

      const sid = `CA${randomBytes(16).toString('hex')}`;
      const counters = countersOf(to);
      counters.calls++;
      totals.calls++;
      if (counters.calls > 1) totals.duplicates++;
      const drawn: CallOutcome = script?.outcome ?? pickWeighted(options.outcomes, Math.random()) ?? 'answered';
      // The caller stops waiting after `Timeout` seconds of ringing (Twilio's default: 60).
      const timeout = /^\d{1,3}$/.test(field('Timeout') ?? '') ? Number(field('Timeout')) : 60;
      const outcome = drawn === 'answered' && options.ringMs > timeout * 1000 ? 'no-answer' : drawn;
      const keys =
        script?.keys !== undefined ? script.keys.split('') : [pickWeighted(options.keys, Math.random()) ?? ''];
      const call: PlacedCall = {
        sid,
        accountSid: options.accountSid,
        to,
        from,
        url,
        method: field('Method') === 'GET' ? 'GET' : 'POST',
        statusCallback,
        statusCallbackMethod: field('StatusCallbackMethod') === 'GET' ? 'GET' : 'POST',
        // Twilio takes the events repeated or space-separated.
        events: new Set(form.filter(([key]) => key === 'StatusCallbackEvent').flatMap(([, v]) => v.split(/\s+/))),
        outcome,
        keys,
        ringMs: Math.min(options.ringMs, timeout * 1000),
        callMs: options.callMs,
      };
      await sleep(options.apiLatencyMs);
      start(call, counters);
      const created = new Date().toUTCString().replace('GMT', '+0000');
      return reply.code(201).send({
        sid,
        account_sid: options.accountSid,
        to,
        to_formatted: to,
        from,
        from_formatted: from,
        status: 'queued',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        date_created: created,
        date_updated: created,
        start_time: null,
        end_time: null,
        duration: null,
        price: null,
        price_unit: 'USD',
        answered_by: null,
        uri: `/2010-04-01/Accounts/${options.accountSid}/Calls/${sid}.json`,
      });
    },
  );

  function start(call: PlacedCall, counters: DestinationCounters): void {
    totals.active++;
    const run = playCall(call, {
      authToken: options.authToken,
      counters,
      signal: stop.signal,
      onCallbackRefused: () => totals.callbacksRefused++,
    })
      .catch((error: unknown) => {
        // Only closing the simulator interrupts a call (its waits and requests are aborted).
        if (!stop.signal.aborted) counters.problems.push(`simulator: ${(error as Error).message}`);
      })
      .finally(() => {
        totals.active--;
        playing.delete(run);
      });
    playing.add(run);
  }

  const counters = (): VoiceSimulatorCounters => ({
    destinations: Object.fromEntries(structuredClone([...destinations])),
    totals: { ...totals },
  });
  const reset = () => {
    destinations = new Map();
    Object.assign(totals, { calls: 0, duplicates: 0, throttled: 0, refused: 0, callbacksRefused: 0 });
    tokens = options.callsPerSecond;
  };
  const setOptions = (next: Partial<VoiceSimulatorOptions>) => {
    options = { ...options, ...next };
    tokens = Math.min(tokens, options.callsPerSecond);
  };

  app.get('/__simulator/counters', async () => counters());
  app.post('/__simulator/reset', async (_request, reply) => {
    reset();
    return reply.code(204).send();
  });
  app.post('/__simulator/options', async (request, reply) => {
    const parsed = voiceSimulatorOptionsSchema.partial().safeParse(request.body);
    if (!parsed.success)
      return reply.code(400).send({ code: 'SIMULATOR_OPTIONS_INVALID', message: parsed.error.message });
    setOptions(parsed.data);
    return options;
  });

  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url,
    get account() {
      return { apiUrl: url, accountSid: options.accountSid, authToken: options.authToken, from: options.from };
    },
    counters,
    reset,
    setOptions,
    options: () => ({ ...options }),
    async idle() {
      while (playing.size > 0) await Promise.all([...playing]);
    },
    async close() {
      stop.abort();
      await Promise.allSettled([...playing]);
      await app.close();
    },
  };
}

function basicCredentials(header: string | undefined): [string, string] | [] {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match) return [];
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? [] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
