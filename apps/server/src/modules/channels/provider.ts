/**
 * The one interface between Ecoa and a carrier (blueprint section 5). Each provider lives in its
 * own folder under `providers/` (SMPP, WhatsApp Cloud API, RCS Business Messaging, a
 * Twilio-compatible calls API), speaks the real protocol, and has a simulator that speaks the
 * same protocol on loopback. Nothing vendor-typed leaks out of a provider's folder: it maps the
 * vendor's statuses and error codes to Ecoa's own.
 */
import type { Channel, MessageStatus } from '@ecoa/shared';

/** The statuses a message moves through (GET /api/v1/messages/:id), defined once in packages/shared. */
export type { MessageStatus };

/** A WhatsApp template body parameter list, in order ({{1}}, {{2}}, …). */
export type WhatsAppTemplate = { name: string; language: string; params: string[] };

export type RcsSuggestion = { kind: 'reply'; text: string } | { kind: 'url'; text: string; url: string };
export type RcsCard = { title: string; description?: string; imageUrl?: string; suggestions?: RcsSuggestion[] };

/** What a call plays: an uploaded audio (a URL the provider fetches) or text-to-speech in pt-BR. */
export type VoicePrompt = { audioUrl: string } | { tts: string };

export type OutboundContent =
  | { kind: 'sms'; text: string; flash: boolean }
  | { kind: 'voice'; prompt: VoicePrompt }
  | {
      kind: 'ura';
      prompt: VoicePrompt;
      /** The digits the menu accepts (e.g. ['1', '2']); others are recorded too. */
      options: string[];
      /** The customer's URL that gets `{phone, digit, campaignId}` when a digit is pressed. */
      integrationUrl?: string;
      campaignId?: string;
    }
  | { kind: 'whatsapp'; template: WhatsAppTemplate }
  /** A free-form text: only inside the 24-hour window after the person wrote (the inbox's answers). */
  | { kind: 'whatsapp_text'; text: string }
  | { kind: 'rcs'; text?: string; card?: RcsCard; suggestions?: RcsSuggestion[] };

/** One message to one recipient. */
export type OutboundMessage = {
  /** Ecoa's message id: providers that take a client id use it (RCS messageId, call status URLs). */
  id: string;
  channel: Channel;
  /** E.164 (`+5511912345678`). */
  to: string;
  content: OutboundContent;
};

export type SubmitOptions = { signal?: AbortSignal };

/** The carrier took the message. Several ids when an SMS went out in several parts (one receipt each). */
export type SubmitResult = { providerMessageIds: string[] };

/**
 * Why a submit failed. `retryable`: nothing was sent and the same submit may succeed later
 * (throttled, bind down before the request left). `sentUnknown`: the request may have reached
 * the carrier (a bind dropped with it in flight): it must never be re-sent blindly.
 */
export class ProviderError extends Error {
  constructor(
    /** Ecoa's reason code, stable (e.g. `SMPP_0x0000000B`, `WHATSAPP_131026`, `RCS_NOT_CAPABLE`). */
    readonly reason: string,
    message: string,
    readonly options: {
      retryable?: boolean;
      sentUnknown?: boolean;
      /** The carrier ids of the parts it did take (a long SMS refused after its first parts): their receipts must still match. */
      providerMessageIds?: string[];
    } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * The sending stopped (the campaign was paused or canceled, the process is stopping) before this
 * message's request was written: nothing left Ecoa, the dispatcher gives the recipient back.
 */
export const SUBMIT_STOPPED = 'SUBMIT_STOPPED';
export function submitStopped(provider: string): ProviderError {
  return new ProviderError(SUBMIT_STOPPED, `${provider}: the sending stopped before the request was written`, {
    retryable: true,
  });
}

/** A status change a carrier reported (receipt, webhook, call callback), already verified and mapped. */
export type StatusEvent = {
  type: 'status';
  provider: string;
  /** The id the carrier gave at submit (normalised by the provider: SMPP ids are compared in one form). */
  providerMessageId: string;
  status: Exclude<MessageStatus, 'queued' | 'submitting'> | 'read';
  /** Why it failed/expired: the carrier's code, kept (e.g. `SMPP_UNDELIV_err_001`, `WHATSAPP_131047`, `VOICE_BUSY`). */
  reason?: string;
  at: Date;
  /** Channel-specific facts: call duration (s), digits pressed. */
  detail?: { durationSeconds?: number; digits?: string };
};

/** A message a person sent to us (an SMS reply). */
export type InboundEvent = { type: 'inbound'; provider: string; from: string; text: string; at: Date };

export type ProviderEvent = StatusEvent | InboundEvent;

export type ProviderHealth = {
  provider: string;
  mode: 'simulator' | 'real';
  /** Bound (SMPP) or reachable (HTTP APIs). */
  connected: boolean;
  tpsLimit: number | null;
  tpsInUse: number;
  inFlight: number;
  lastError: { message: string; at: string } | null;
};

/** A carrier's HTTP call to Ecoa (status webhook, call instructions), as the provider needs it to verify it. */
export type WebhookRequest = {
  method: 'GET' | 'POST';
  /** The full public URL the carrier called (PUBLIC_URL + path + query): some signatures cover it. */
  url: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string>;
  /** The exact bytes received: signatures are computed over them. */
  rawBody: Buffer;
};
export type WebhookResponse = { status: number; body?: string; contentType?: string };
/**
 * A route the channels module mounts under `/api/webhooks/<provider>/…` for a provider. The
 * provider verifies the signature (401 and nothing changed when it is wrong), parses, and
 * reports events through its listener before answering.
 */
export type WebhookRoute = {
  method: 'GET' | 'POST';
  /** Below `/api/webhooks/<provider>`, Fastify syntax (`/status`, `/calls/:messageId/twiml`). */
  path: string;
  /**
   * The answer to a genuine request; a refusal is thrown as an `AppError` of the catalogue (its
   * `WEBHOOK_…`/`VOICE_…` carrier entries), which the one error handler answers as `{message, code}`.
   */
  handle(request: WebhookRequest, params: Record<string, string>): Promise<WebhookResponse>;
};

/**
 * What the channels core did with a receipt: `early` when no stored message has its carrier id
 * (it waits in `early_receipts` in case its submit is being stored; an id that never will be is a
 * receipt lost); undefined for an inbound message.
 */
export type EventOutcome = 'applied' | 'early' | 'unchanged' | undefined;
export type EventListener = (event: ProviderEvent) => Promise<EventOutcome>;

/** Counters a provider keeps of what carriers sent it, for /metrics. */
export type ProviderCounters = {
  /** Receipts whose carrier id matched no stored message when they came (EventOutcome `early`). */
  unmatchedReceipts: number;
};

export interface ChannelProvider {
  readonly name: string;
  readonly channels: readonly Channel[];
  /**
   * Sends one message; resolves when the carrier accepted it (its ids), throws ProviderError
   * otherwise. When `signal` aborts before the request was written (waiting for a pace, a window
   * slot, a bind), it rejects with `submitStopped` (retryable: nothing was sent); once written,
   * the request runs to its answer.
   */
  submit(message: OutboundMessage, options?: SubmitOptions): Promise<SubmitResult>;
  /** Receipts and inbound messages, as they arrive. One listener (the channels service). */
  onEvent(listener: EventListener): void;
  /** The HTTP routes carriers call back on (none for SMPP: its receipts come on the bind). */
  readonly webhooks: readonly WebhookRoute[];
  health(): ProviderHealth;
  /** Its counters, when it keeps them (SMPP). */
  receiptCounters?(): ProviderCounters;
  close(): Promise<void>;
}
