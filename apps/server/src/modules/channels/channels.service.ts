import {
  analyzeSms,
  CHANNEL_CREDIT_TYPE,
  CHANNELS,
  type Channel,
  type Message,
  normalizeBrazilianPhone,
  type ProviderHealthDto,
  REPLY_FAMILY_CHANNELS,
  type ReplyChannel,
  sanitizeText,
  type TestSendInput,
  WHATSAPP_ANSWER_WINDOW_MS,
} from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import { sqlStateOf } from '../../platform/db/errors.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { OptOutsService } from '../opt-outs/index.ts';
import { uraAnswerQueue } from './channels.jobs.ts';
import type { ChannelsRepository } from './channels.repository.ts';
import { createInflightSubmits } from './inflight-submits.ts';
import { createInterruptedTestSends } from './interrupted-test-sends.ts';
import { isOptOutReply } from './opt-out-words.ts';
import {
  type EventOutcome,
  type InboundEvent,
  type OutboundContent,
  ProviderError,
  type ProviderEvent,
  type StatusEvent,
  type SubmitResult,
  type VoicePrompt,
} from './provider.ts';
import type { ProviderRegistry } from './providers/registry.ts';
import { createReceiptBatcher } from './receipt-batcher.ts';

export type ChannelsServiceDeps = {
  db: Database;
  repo: ChannelsRepository;
  providers: ProviderRegistry;
  ledger: Pick<LedgerService, 'reserve' | 'capture' | 'release' | 'outstandingReservation'>;
  optOuts: Pick<OptOutsService, 'optedOut' | 'addReply'>;
  /** A link the carrier can fetch to play one of the user's audios (the audios module). */
  audioUrl: (userId: string, audioId: string) => Promise<string>;
  jobs: Pick<Jobs, 'send'>;
  clock: Clock;
  logger: Logger;
  /** What the customer's webhooks report (the composition root wires them to the webhooks module). */
  events?: ChannelEvents;
};

/** A reply as it arrives: stored, and an opt-out when it asked to stop; `inReplyTo` the message it answers. */
export type IncomingReply = {
  userId: string;
  replyId: string;
  from: string;
  text: string;
  optedOut: boolean;
  receivedAt: Date;
  inReplyTo: { messageId: string; campaignId: string | null; channel: Channel } | null;
};

/** Replies, opt-outs by reply and URA keys, as they happen (`message.status` rides the batches' StatusListener). */
export type ChannelEvents = {
  onReply?: (reply: IncomingReply) => Promise<void>;
  onDigits?: (press: {
    userId: string;
    messageId: string;
    to: string;
    digits: string;
    campaignId: string | null;
  }) => Promise<void>;
};

/** Channels whose recipients must be mobile phones (a landline cannot get an SMS, WhatsApp or RCS). */
/** A paid send's message; `replayed` when an earlier request with the same Idempotency-Key made it. */
export type SentMessage = { id: string; replayed: boolean };
type SendOptions = { idempotencyKey?: string };

const MOBILE_ONLY: ReadonlySet<Channel> = new Set(['sms_short', 'sms_flash', 'whatsapp', 'rcs']);
/** How far a carrier's clock may be behind ours when a reply is matched to the message it answers. */
const REPLY_CLOCK_SLACK_MS = 60_000;
/** A throttled or briefly unavailable carrier: a test send tries this many times. */
const SUBMIT_ATTEMPTS = 3;

export function createChannelsService(deps: ChannelsServiceDeps) {
  const { db, repo, providers, ledger, clock, logger } = deps;
  const interrupted = createInterruptedTestSends({ db, repo, ledger, clock, logger });
  // Receipts are stored in batches (thousands a second); each carrier is answered once its own is
  // committed. A receipt for a campaign message whose batch is still being sent rides with that
  // batch, for a second at most (then it is stored the ordinary way: carriers do not wait long).
  const inflight = createInflightSubmits({ ordinary: (event) => receipts.store(event) });
  const receipts = createReceiptBatcher({
    apply: (events: StatusEvent[]) => repo.applyReceipts(events),
    divert: (event) => inflight.offer(event),
    maxInFlight: 2,
  });

  /** The content a provider sends, from what the user asked; the credits it costs. */
  async function contentOf(userId: string, input: TestSendInput): Promise<{ content: OutboundContent; parts: number }> {
    const prompt = async (): Promise<VoicePrompt> => {
      if (input.audioId && input.tts) throw new AppError('VOICE_PROMPT_AMBIGUOUS');
      if (input.audioId) return { audioUrl: await deps.audioUrl(userId, input.audioId) };
      if (input.tts) return { tts: input.tts };
      throw new AppError('VOICE_PROMPT_REQUIRED');
    };
    switch (input.channel) {
      case 'sms_short':
      case 'sms_flash': {
        if (!input.text?.trim()) throw new AppError('TEXT_REQUIRED');
        const sms = analyzeSms(input.text);
        return {
          content: { kind: 'sms', text: input.text, flash: input.channel === 'sms_flash' },
          parts: sms.parts.length,
        };
      }
      case 'voice_torpedo':
        return { content: { kind: 'voice', prompt: await prompt() }, parts: 1 };
      case 'ura':
        return {
          content: {
            kind: 'ura',
            prompt: await prompt(),
            options: input.options?.length ? input.options : ['1', '2'],
            ...(input.integrationUrl ? { integrationUrl: input.integrationUrl } : {}),
          },
          parts: 1,
        };
      case 'whatsapp':
        if (!input.template) throw new AppError('TEMPLATE_REQUIRED');
        return {
          content: {
            kind: 'whatsapp',
            template: { name: input.template.name, language: input.template.language, params: input.template.params },
          },
          parts: 1,
        };
      case 'rcs': {
        const rcs = input.rcs ?? (input.text ? { text: input.text } : undefined);
        if (!rcs) throw new AppError('RCS_CONTENT_REQUIRED');
        return { content: { kind: 'rcs', ...rcs }, parts: 1 };
      }
    }
  }

  /** The carrier call, retried when it says so (throttled, briefly down); never when it may have sent. */
  async function submitWithRetries(
    channel: Channel,
    message: Parameters<ReturnType<ProviderRegistry['forChannel']>['submit']>[0],
  ) {
    const provider = providers.forChannel(channel);
    for (let attempt = 1; ; attempt++) {
      try {
        return await provider.submit(message);
      } catch (err) {
        const retry = err instanceof ProviderError && err.options.retryable && attempt < SUBMIT_ATTEMPTS;
        if (!retry) throw err;
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  }

  /** Extra work a receipt brings: a URA digit goes to the customer's integration URL (a job, retried). */
  async function afterReceipt(event: StatusEvent, messageId: string | undefined): Promise<void> {
    if (!messageId || event.detail?.digits === undefined) return;
    await deps.jobs.send(uraAnswerQueue, { messageId, digits: event.detail.digits });
    const onDigits = deps.events?.onDigits;
    const message = onDigits ? await repo.findById(messageId) : undefined;
    if (onDigits && message) {
      await onDigits({
        userId: message.userId,
        messageId,
        to: message.toPhone,
        digits: event.detail.digits,
        campaignId: message.campaignId ?? null,
      });
    }
  }

  /** The reply family of each provider's inbound messages (SMPP's are SMS replies). */
  function replyChannelOf(providerName: string): ReplyChannel {
    const channels = providers.all().find((p) => p.name === providerName)?.channels ?? [];
    if (channels.includes('whatsapp')) return 'whatsapp';
    if (channels.includes('rcs')) return 'rcs';
    return 'sms';
  }

  async function onInbound(event: InboundEvent): Promise<void> {
    const from = normalizeBrazilianPhone(event.from);
    // What a phone sends is outside input like any other: a NUL in it would fail the insert, and
    // the carrier would be told to send it again, forever.
    const phone = from.ok ? from.e164 : sanitizeText(event.from).slice(0, 40);
    const text = sanitizeText(event.text, { multiline: true });
    const channel = replyChannelOf(event.provider);
    // The message it answers: the last one sent to this number on its family. Failing that, the
    // account that last wrote to it on any channel still owns it (its opt-out words count).
    // Sent before the reply, by the carrier's clock (whole seconds on WhatsApp, and not ours): a
    // minute's slack, so a quick answer still finds the message it answers.
    const before = new Date(event.at.getTime() + REPLY_CLOCK_SLACK_MS);
    const answered = await repo.lastMessageTo(phone, REPLY_FAMILY_CHANNELS[channel], before);
    const userId = answered?.userId ?? (await repo.lastMessageTo(phone, CHANNELS, before))?.userId;
    const optOut = Boolean(userId) && from.ok && isOptOutReply(text);
    if (optOut) await deps.optOuts.addReply(userId!, phone);
    const replyId = await repo.storeInbound({
      userId: userId ?? null,
      provider: event.provider,
      channel,
      fromPhone: phone,
      text,
      optedOut: optOut,
      receivedAt: event.at,
      messageId: answered?.messageId ?? null,
      campaignId: answered?.campaignId ?? null,
    });
    logger.info({ provider: event.provider, userId, optOut }, 'inbound message stored');
    if (userId && deps.events?.onReply) {
      await deps.events.onReply({
        userId,
        replyId,
        from: phone,
        text,
        optedOut: optOut,
        receivedAt: event.at,
        inReplyTo: answered
          ? { messageId: answered.messageId, campaignId: answered.campaignId, channel: answered.channel }
          : null,
      });
    }
  }

  /** The message an earlier request with this Idempotency-Key made: answered again, nothing sent. */
  async function earlierSend(userId: string, clientKey: string | null): Promise<SentMessage | undefined> {
    const id = clientKey ? await repo.findByClientKey(userId, clientKey) : undefined;
    return id ? { id, replayed: true } : undefined;
  }

  /**
   * One paid message to one number through the real adapter: reserved with the message, captured
   * once the carrier took it (or may have), released when it refused. Test sends and the inbox's
   * answers both come here.
   */
  async function sendPaid(
    userId: string,
    send: { channel: Channel; phone: string; content: OutboundContent; parts: number; clientKey: string | null },
  ): Promise<SentMessage> {
    const { channel, content, parts, clientKey } = send;
    const provider = providers.forChannel(channel);
    const type = CHANNEL_CREDIT_TYPE[channel];
    const now = clock.now();
    let id: string;
    try {
      id = await db.transaction(async (tx) => {
        const messageId = await repo.createMessage(
          { userId, channel, toPhone: send.phone, parts, provider: provider.name, content, clientKey },
          now,
          tx,
        );
        await ledger.reserve({ userId, type, amount: parts, reference: { type: 'message', id: messageId }, tx });
        return messageId;
      });
    } catch (err) {
      // The same key at the same moment: the twin created the message; this one answers it.
      const twin = sqlStateOf(err) === '23505' ? await earlierSend(userId, clientKey) : undefined;
      if (twin) return twin;
      throw err;
    }

    const reference = { type: 'message', id };
    // Settled meanwhile (this process stalled past settleInterrupted's bound, which released
    // it as never sent): it must not be sent now.
    if (!(await repo.markSubmitting(id, clock.now()))) return { id, replayed: false };
    let result: SubmitResult;
    try {
      result = await submitWithRetries(channel, { id, channel, to: send.phone, content });
    } catch (err) {
      const unknown = err instanceof ProviderError && err.options.sentUnknown;
      const reason = err instanceof ProviderError ? err.reason : 'INTERNAL';
      if (!(err instanceof ProviderError)) logger.error({ err, messageId: id }, 'test send failed unexpectedly');
      await db.transaction(async (tx) => {
        const moved = await repo.settleWithoutCarrier(id, unknown ? 'unknown' : 'failed', reason, clock.now(), tx);
        // Settled meanwhile by settleInterrupted: its credits moved then.
        if (!moved) return;
        // The carrier may have sent it: it is paid. Refused: the credits come back.
        if (unknown) await ledger.capture({ userId, type, amount: parts, reference, tx });
        else await ledger.release({ userId, type, amount: parts, reference, tx });
      });
      return { id, replayed: false };
    }
    // The carrier took it. Should this write fail (the database gone), the message stays
    // `submitting` with its credits reserved, and settleInterrupted settles it: never resent.
    const early = await db.transaction(async (tx) => {
      // Still `submitting`: paid now. Otherwise settleInterrupted took it for cut off and
      // captured it already; its ids are stored all the same, so its receipts settle it.
      if (await repo.lockIfSubmitting(id, tx)) await ledger.capture({ userId, type, amount: parts, reference, tx });
      return repo.recordSubmitted(id, provider.name, result.providerMessageIds, clock.now(), tx);
    });
    for (const event of early) await afterReceipt(event, id);
    return { id, replayed: false };
  }

  return {
    /**
     * One message to one number through the real adapter, paid in credits of the channel's type:
     * reserved with the message (refused when the user lacks them), captured once the carrier
     * took it (or may have: a bind that dropped mid-request), released when it refused.
     */
    async testSend(userId: string, input: TestSendInput, options: SendOptions = {}): Promise<SentMessage> {
      const clientKey = options.idempotencyKey ?? null;
      const earlier = await earlierSend(userId, clientKey);
      if (earlier) return earlier;
      const phone = normalizeBrazilianPhone(input.to);
      if (!phone.ok) throw new AppError('INVALID_PHONE');
      if (MOBILE_ONLY.has(input.channel) && phone.kind !== 'mobile') {
        throw new AppError('MOBILE_REQUIRED');
      }
      if ((await deps.optOuts.optedOut(userId, [phone.e164])).size > 0) {
        throw new AppError('RECIPIENT_OPTED_OUT');
      }
      const { content, parts } = await contentOf(userId, input);
      return sendPaid(userId, { channel: input.channel, phone: phone.e164, content, parts, clientKey });
    },

    /**
     * Answers a reply from the inbox, paid like a test send (its Idempotency-Key too): an SMS
     * reply by SMS, a WhatsApp one by a free-form text inside WhatsApp's 24-hour customer-service
     * window after it. The reply must be the user's own (another's is not found).
     */
    async answerReply(
      userId: string,
      reply: { phone: string; channel: ReplyChannel; receivedAt: Date },
      text: string,
      options: SendOptions = {},
    ): Promise<SentMessage> {
      const clientKey = options.idempotencyKey ?? null;
      const earlier = await earlierSend(userId, clientKey);
      if (earlier) return earlier;
      const phone = normalizeBrazilianPhone(reply.phone);
      if (reply.channel === 'rcs' || !phone.ok || phone.kind !== 'mobile') throw new AppError('REPLY_NOT_ANSWERABLE');
      if (
        reply.channel === 'whatsapp' &&
        clock.now().getTime() - reply.receivedAt.getTime() >= WHATSAPP_ANSWER_WINDOW_MS
      )
        throw new AppError('REPLY_WINDOW_CLOSED');
      if ((await deps.optOuts.optedOut(userId, [phone.e164])).size > 0) throw new AppError('RECIPIENT_OPTED_OUT');
      const clean = sanitizeText(text, { multiline: true }).trim();
      if (!clean) throw new AppError('TEXT_REQUIRED');
      if (reply.channel === 'whatsapp') {
        const content: OutboundContent = { kind: 'whatsapp_text', text: clean };
        return sendPaid(userId, { channel: 'whatsapp', phone: phone.e164, content, parts: 1, clientKey });
      }
      const content: OutboundContent = { kind: 'sms', text: clean, flash: false };
      const parts = analyzeSms(clean).parts.length;
      return sendPaid(userId, { channel: 'sms_short', phone: phone.e164, content, parts, clientKey });
    },

    /** Test sends whose process died, settled (interrupted-test-sends.ts); every minute. */
    settleInterrupted: (olderThanMs?: number) => interrupted.settle(olderThanMs),

    async getMessage(userId: string, id: string): Promise<Message> {
      const found = await repo.findOwned(userId, id);
      if (!found) throw new AppError('MESSAGE_NOT_FOUND');
      const { message, events } = found;
      return {
        id: message.id,
        channel: message.channel,
        to: message.toPhone,
        status: message.status,
        ...(message.reason ? { reason: message.reason } : {}),
        parts: message.parts,
        externalId: message.externalId,
        batchId: message.campaignId,
        createdAt: message.createdAt.toISOString(),
        events: events.map((e) => ({
          status: e.status,
          at: e.at.toISOString(),
          ...(e.reason ? { reason: e.reason } : {}),
          ...(e.detail?.digits !== undefined ? { digits: e.detail.digits } : {}),
        })),
      };
    },

    /**
     * Every receipt and inbound message of every provider comes through here. Says what became of
     * a receipt (`early`: no stored message has its carrier id; the provider counts those).
     */
    async handleEvent(event: ProviderEvent): Promise<EventOutcome> {
      if (event.type === 'inbound') {
        await onInbound(event);
        return undefined;
      }
      const { outcome, messageId } = await receipts.push(event);
      if (outcome === 'applied') await afterReceipt(event, messageId);
      return outcome;
    },

    /** Receipts that waited for their submit, now applied: their follow-ups too. */
    afterReceipt,

    /**
     * Early receipts whose submit is stored by now, applied (the campaign supervisor, every few
     * seconds), with their follow-ups: a URA key applied here reaches the integration URL too.
     */
    async sweepEarlyReceipts(): Promise<number> {
      const { swept, followUps } = await repo.sweepEarlyReceipts(clock.now());
      for (const { event, messageId } of followUps) await afterReceipt(event, messageId);
      return swept;
    },

    /** A batch of campaign submits in flight, which its receipts may join (the campaign dispatcher). */
    inflightBatch: () => inflight.batch(),

    /** Stores the receipts still waiting for their batch (a stopping process). */
    closeReceipts: () => receipts.close(),

    health(): ProviderHealthDto[] {
      return providers.all().map((p) => ({ ...p.health(), channels: [...p.channels] }));
    },

    /** The URA answer job: `{phone, digit, campaignId}` to the customer's integration URL. */
    async deliverUraAnswer(
      messageId: string,
      digits: string,
      post: (url: string, body: unknown) => Promise<{ status: number }>,
    ) {
      const message = await repo.findById(messageId);
      if (message?.content.kind !== 'ura' || !message.content.integrationUrl) return;
      const res = await post(message.content.integrationUrl, {
        phone: message.toPhone,
        digit: digits,
        campaignId: message.campaignId ?? message.content.campaignId ?? null,
      });
      if (res.status >= 500 || res.status === 429) {
        throw new AppError('INTEGRATION_UNAVAILABLE', undefined, { status: res.status });
      }
    },
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;
