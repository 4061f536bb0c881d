/**
 * RCS (channel `rcs`) through Google RCS Business Messaging: texts and standalone rich cards
 * with suggestions, sent with Ecoa's message id as RBM's messageId (so a retry never sends
 * twice), authorised by a service account's OAuth2 token, paced to the agent's quota, and the
 * signed events webhook mapped to Ecoa's statuses.
 */
import { systemClock } from '../../../../platform/clock/clock.ts';
import type { ProvidersConfig } from '../../../../platform/config/config.ts';
import {
  type ChannelProvider,
  type OutboundContent,
  type OutboundMessage,
  ProviderError,
  type SubmitResult,
} from '../../provider.ts';
import { type CarrierOptions, carrierProvider } from '../http-kit/carrier-provider.ts';
import { HealthTracker } from '../http-kit/health.ts';
import { httpExchange, type TransportError } from '../http-kit/http-client.ts';
import { SendPacer } from '../http-kit/pacer.ts';
import { interpretRcsAnswer } from './rcs.answer.ts';
import { ServiceAccountTokens } from './rcs.token.ts';
import { rcsWebhookRoutes } from './rcs.webhook.ts';
import { agentMessage, RBM_SCOPE } from './rcs.wire.ts';

export type RcsConfig = NonNullable<ProvidersConfig['rcs']>;
type RcsContent = Extract<OutboundContent, { kind: 'rcs' }>;

export const RCS_PROVIDER = 'rcs';
/**
 * Sends per second to the RBM API by default (RCS_MESSAGES_PER_SECOND). Google sets each
 * agent's quota (its console shows it) and publishes no single figure: a conservative start.
 */
export const RCS_DEFAULT_MESSAGES_PER_SECOND = 100;

/** `messagesPerSecond` overrides the configured quota (the bench lifts it). */
export type RcsProviderOptions = CarrierOptions<RcsConfig>;

export function createRcsProvider(options: RcsProviderOptions): ChannelProvider {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const pacer = new SendPacer(options.messagesPerSecond ?? config.messagesPerSecond, undefined, options.share);
  const health = new HealthTracker(RCS_PROVIDER, options.mode, pacer, clock);
  const tokens = new ServiceAccountTokens({
    keyFile: config.serviceAccountFile,
    scope: RBM_SCOPE,
    clock,
    timeoutMs,
    onAccountError: (message) => health.error(message),
  });

  function check(message: OutboundMessage): RcsContent {
    const content = message.content;
    if (content.kind !== 'rcs') {
      throw new ProviderError('RCS_CONTENT_UNSUPPORTED', `RCS sends texts and cards, not ${content.kind}`);
    }
    // An AgentMessage holds one text or one card, never both.
    if (!content.card === !content.text) {
      throw new ProviderError('RCS_CONTENT_INVALID', 'an RCS message is either a text or a card');
    }
    if (!/^\+[1-9]\d{7,14}$/.test(message.to)) {
      throw new ProviderError('RCS_NUMBER_INVALID', 'the recipient is not an E.164 number');
    }
    return content;
  }

  async function send(message: OutboundMessage, content: RcsContent): Promise<SubmitResult> {
    const url =
      `${config.apiUrl}/v1/phones/${message.to}/agentMessages` +
      `?messageId=${encodeURIComponent(message.id)}&agentId=${encodeURIComponent(config.agentId)}`;
    const body = JSON.stringify(agentMessage(content));
    // A revoked or expired token gets one fresh token and one more try (same messageId: safe).
    for (let attempt = 1; ; attempt++) {
      const token = await tokens.token();
      const answer = await httpExchange({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
        timeoutMs,
        maxAnswerBytes: 256 * 1024,
      });
      health.reached();
      if (answer.status === 401 && attempt === 1) {
        tokens.invalidate(token);
        continue;
      }
      const meaning = interpretRcsAnswer(answer.status, answer.body);
      if (meaning.ok) return { providerMessageIds: [message.id] };
      if (meaning.account) health.error(`${meaning.error.reason}: ${meaning.error.message}`);
      throw meaning.error;
    }
  }

  function transportFailure(err: TransportError): ProviderError {
    if (!err.maybeSent) health.unreachable(`RBM is unreachable (${err.code})`);
    else health.error(`no answer from RBM (${err.code})`);
    // Idempotent by messageId: even a send that may have been taken is retried safely.
    return new ProviderError(err.maybeSent ? 'RCS_NO_ANSWER' : 'RCS_UNREACHABLE', `RBM did not answer (${err.code})`, {
      retryable: true,
    });
  }

  return carrierProvider({
    name: RCS_PROVIDER,
    channels: ['rcs'],
    pacer,
    health,
    check,
    closedError: () => new ProviderError('RCS_CLOSED', 'the RCS provider is closed', { retryable: true }),
    send,
    transportFailure,
    webhooks: (listener) =>
      rcsWebhookRoutes({ provider: RCS_PROVIDER, agentId: config.agentId, clientToken: config.webhookToken, listener }),
  });
}
