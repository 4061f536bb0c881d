/**
 * WhatsApp (channel `whatsapp`) through the WhatsApp Business Cloud API: business-initiated
 * template messages (and free-form texts inside the 24-hour window, the inbox's answers), paced to the business number's throughput, answers and webhook
 * notifications mapped to Ecoa's statuses and `WHATSAPP_<code>` reasons.
 */
import { systemClock } from '../../../../platform/clock/clock.ts';
import type { ProvidersConfig } from '../../../../platform/config/config.ts';
import { type ChannelProvider, type OutboundMessage, ProviderError, type SubmitResult } from '../../provider.ts';
import { type CarrierOptions, carrierProvider } from '../http-kit/carrier-provider.ts';
import { HealthTracker } from '../http-kit/health.ts';
import { httpExchange, type TransportError } from '../http-kit/http-client.ts';
import { SendPacer } from '../http-kit/pacer.ts';
import { interpretSendAnswer } from './whatsapp.answer.ts';
import { whatsappWebhookRoutes } from './whatsapp.webhook.ts';
import { templateRequest, textRequest } from './whatsapp.wire.ts';

export type WhatsAppConfig = NonNullable<ProvidersConfig['whatsapp']>;

export const WHATSAPP_PROVIDER = 'whatsapp';
/** The Cloud API's default throughput per business phone number (messages per second). */
export const WHATSAPP_DEFAULT_MESSAGES_PER_SECOND = 80;

/** `messagesPerSecond` overrides the configured throughput (the bench lifts it). */
export type WhatsAppProviderOptions = CarrierOptions<WhatsAppConfig>;

/** A send answer is a few hundred bytes; more is not the Cloud API. */
const MAX_ANSWER_BYTES = 64 * 1024;

export function createWhatsAppProvider(options: WhatsAppProviderOptions): ChannelProvider {
  const { config } = options;
  const pacer = new SendPacer(options.messagesPerSecond ?? config.messagesPerSecond, undefined, options.share);
  const health = new HealthTracker(WHATSAPP_PROVIDER, options.mode, pacer, options.clock ?? systemClock);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const endpoint = `${config.apiUrl}/${config.apiVersion}/${config.phoneNumberId}/messages`;

  /** The request body: a template, or a free-form text (the inbox's answers, inside the window). */
  function check(message: OutboundMessage): object {
    const { content } = message;
    if (content.kind !== 'whatsapp' && content.kind !== 'whatsapp_text') {
      throw new ProviderError(
        'WHATSAPP_CONTENT_UNSUPPORTED',
        `WhatsApp sends templates and texts, not ${content.kind}`,
      );
    }
    if (!/^\+[1-9]\d{7,14}$/.test(message.to)) {
      throw new ProviderError('WHATSAPP_NUMBER_INVALID', 'the recipient is not an E.164 number');
    }
    const to = message.to.slice(1);
    return content.kind === 'whatsapp' ? templateRequest(to, content.template) : textRequest(to, content.text);
  }

  async function send(_message: OutboundMessage, request: object): Promise<SubmitResult> {
    const answer = await httpExchange({
      method: 'POST',
      url: endpoint,
      headers: { authorization: `Bearer ${config.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
      timeoutMs,
      maxAnswerBytes: MAX_ANSWER_BYTES,
    });
    health.reached();
    const meaning = interpretSendAnswer(answer.status, answer.body);
    if (meaning.ok) return { providerMessageIds: [meaning.wamid] };
    if (meaning.account) health.error(`${meaning.error.reason}: ${meaning.error.message}`);
    throw meaning.error;
  }

  function transportFailure(err: TransportError): ProviderError {
    if (!err.maybeSent) {
      health.unreachable(`the Cloud API is unreachable (${err.code})`);
      return new ProviderError('WHATSAPP_UNREACHABLE', `the Cloud API is unreachable: ${err.message}`, {
        retryable: true,
      });
    }
    health.error(`no answer from the Cloud API (${err.code})`);
    return new ProviderError('WHATSAPP_NO_ANSWER', `the send may have been taken, no answer came (${err.code})`, {
      sentUnknown: true,
    });
  }

  return carrierProvider({
    name: WHATSAPP_PROVIDER,
    channels: ['whatsapp'],
    pacer,
    health,
    check,
    closedError: () => new ProviderError('WHATSAPP_CLOSED', 'the WhatsApp provider is closed', { retryable: true }),
    send,
    transportFailure,
    webhooks: (listener) =>
      whatsappWebhookRoutes({
        provider: WHATSAPP_PROVIDER,
        appSecret: config.appSecret,
        verifyToken: config.verifyToken,
        phoneNumberId: config.phoneNumberId,
        listener,
      }),
  });
}
