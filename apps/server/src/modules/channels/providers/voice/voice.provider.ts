/**
 * Voice torpedo and URA through a Twilio-compatible calls API (blueprint section 5). `submit`
 * creates one call whose TwiML address carries what the call plays (see call-script.ts), whose
 * status address reports its progress; the webhooks answer the carrier and report events. The
 * provider keeps nothing per call: any process that has the same configuration can answer any
 * call's callbacks, also after a restart.
 */
import type { Clock } from '../../../../platform/clock/clock.ts';
import { systemClock } from '../../../../platform/clock/clock.ts';
import { PaceAbortedError } from '../../../../platform/pacing/paced-turns.ts';
import type { RateShare } from '../../../../platform/pacing/process-share.ts';
import type { ChannelProvider, EventListener, OutboundMessage, ProviderHealth, SubmitResult } from '../../provider.ts';
import { ProviderError, type SubmitOptions, submitStopped } from '../../provider.ts';
import { createCallPacer, PacerClosedError } from './call-pacer.ts';
import { type CallScript, encodeCallScript, scriptProblem } from './call-script.ts';
import { createCall } from './calls-api.ts';
import { callWebhookUrl, VOICE_PROVIDER_NAME, voiceWebhookRoutes } from './voice.webhooks.ts';

export type VoiceProviderOptions = {
  /** The carrier's API and the account (config.providers.voice, or the simulator's). */
  api: { apiUrl: string; accountSid: string; authToken: string; from: string };
  /** Ecoa's public address (config.publicUrl): the carrier calls it back. */
  publicUrl: string;
  mode: 'simulator' | 'real';
  clock?: Clock;
  /** The account's calls per second (Twilio grants 1 by default; more on request). */
  callsPerSecond?: number;
  /** How long a phone rings before the call counts as not answered. */
  ringTimeoutSeconds?: number;
  /** How long an URA waits for a key after its question. */
  menuTimeoutSeconds?: number;
  /** The longest a call may last: a cap on what a runaway call can cost. */
  timeLimitSeconds?: number;
  /** How long the calls API has to answer one request. */
  requestTimeoutMs?: number;
  /** This process's share of the CPS, when several processes call (process-share.ts). */
  share?: RateShare;
};

type Tunables =
  | 'callsPerSecond'
  | 'ringTimeoutSeconds'
  | 'menuTimeoutSeconds'
  | 'timeLimitSeconds'
  | 'requestTimeoutMs';

export const VOICE_DEFAULTS: Required<Pick<VoiceProviderOptions, Tunables>> = {
  callsPerSecond: 1,
  // Long enough for a person to reach the phone, short of most carriers' voicemail (~25–40 s).
  ringTimeoutSeconds: 30,
  menuTimeoutSeconds: 6,
  timeLimitSeconds: 600,
  requestTimeoutMs: 15_000,
};

export function createVoiceProvider(options: VoiceProviderOptions): ChannelProvider {
  const settings = { ...VOICE_DEFAULTS, ...definedOnly(options) };
  const clock = options.clock ?? systemClock;
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const pacer = createCallPacer(settings.callsPerSecond, options.share);
  let listener: EventListener | null = null;
  let inFlight = 0;
  let connected = true;
  let lastError: ProviderHealth['lastError'] = null;

  function scriptOf(message: OutboundMessage): CallScript {
    const { content } = message;
    if (message.channel === 'voice_torpedo' && content.kind === 'voice') return { prompt: content.prompt };
    if (message.channel === 'ura' && content.kind === 'ura') {
      return {
        prompt: content.prompt,
        menu: { options: content.options, timeoutSeconds: settings.menuTimeoutSeconds },
      };
    }
    throw new ProviderError(
      'VOICE_CONTENT_INVALID',
      `a ${message.channel} message cannot carry ${content.kind} content`,
    );
  }

  async function submit(message: OutboundMessage, { signal }: SubmitOptions = {}): Promise<SubmitResult> {
    const script = scriptOf(message);
    const problem = scriptProblem(script);
    if (problem) throw new ProviderError(problem, `message ${message.id}: its call script cannot be played`);
    if (!/^\+[1-9]\d{7,14}$/.test(message.to)) {
      throw new ProviderError('VOICE_TO_INVALID', `message ${message.id}: "${message.to}" is not an E.164 number`);
    }
    try {
      await pacer.take(signal);
    } catch (error) {
      if (error instanceof PacerClosedError)
        throw new ProviderError('VOICE_CLOSED', error.message, { retryable: true });
      if (error instanceof PaceAbortedError) throw submitStopped(VOICE_PROVIDER_NAME);
      throw error;
    }
    // Stopped right as the turn came: the call is not created.
    if (signal?.aborted) throw submitStopped(VOICE_PROVIDER_NAME);
    inFlight++;
    try {
      const { callSid } = await createCall(
        { ...options.api, requestTimeoutMs: settings.requestTimeoutMs },
        {
          to: message.to,
          from: options.api.from,
          twimlUrl: callWebhookUrl(publicUrl, message.id, 'twiml', { script: encodeCallScript(script) }),
          statusCallbackUrl: callWebhookUrl(publicUrl, message.id, 'status'),
          ringTimeoutSeconds: settings.ringTimeoutSeconds,
          timeLimitSeconds: settings.timeLimitSeconds,
        },
      );
      connected = true;
      return { providerMessageIds: [callSid] };
    } catch (error) {
      if (error instanceof ProviderError) {
        if (error.reason === 'VOICE_UNREACHABLE' || error.reason === 'VOICE_TIMEOUT') connected = false;
        lastError = { message: `${error.reason}: ${error.message}`, at: clock.now().toISOString() };
      }
      throw error;
    } finally {
      inFlight--;
    }
  }

  const webhooks = voiceWebhookRoutes({
    authToken: options.api.authToken,
    publicUrl,
    clock,
    async emit(event) {
      if (!listener) throw new Error('no listener for voice events yet');
      await listener(event);
    },
  });

  return {
    name: VOICE_PROVIDER_NAME,
    channels: ['voice_torpedo', 'ura'],
    submit,
    onEvent(next) {
      listener = next;
    },
    webhooks,
    health() {
      return {
        provider: VOICE_PROVIDER_NAME,
        mode: options.mode,
        connected,
        tpsLimit: settings.callsPerSecond,
        tpsInUse: pacer.startedLastSecond(),
        inFlight,
        lastError,
      };
    },
    async close() {
      pacer.close();
    },
  };
}

/** The options that were given a value (so an explicit `undefined` keeps the default). */
function definedOnly(options: VoiceProviderOptions): Partial<Record<Tunables, number>> {
  const out: Partial<Record<Tunables, number>> = {};
  for (const key of Object.keys(VOICE_DEFAULTS) as Tunables[]) {
    const value = options[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
