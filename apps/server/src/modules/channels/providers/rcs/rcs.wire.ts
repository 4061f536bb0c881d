/**
 * RCS Business Messaging's wire formats, written once for the adapter, the simulator, the tests,
 * the fuzz suite and the bench: the AgentMessage Ecoa sends, Google's error body, and the
 * webhook envelope (`{message: {data: base64(JSON), messageId, publishTime}, subscription}`)
 * with its `X-Goog-Signature`: base64 of HMAC-SHA512 over the *decoded* data, keyed by the
 * webhook's client token.
 */
import crypto from 'node:crypto';
import type { OutboundContent, RcsSuggestion } from '../../provider.ts';

export const RBM_SCOPE = 'https://www.googleapis.com/auth/rcsbusinessmessaging';

/** `X-Goog-Signature` for the decoded bytes of `message.data`. */
export function signRcsData(clientToken: string, data: Buffer): string {
  return crypto.createHmac('sha512', clientToken).update(data).digest('base64');
}

type RbmSuggestion =
  | { reply: { text: string; postbackData: string } }
  | { action: { text: string; postbackData: string; openUrlAction: { url: string } } };

function suggestion(s: RcsSuggestion): RbmSuggestion {
  // postbackData comes back in the user's suggestionResponse: the text is what they chose.
  return s.kind === 'reply'
    ? { reply: { text: s.text, postbackData: s.text } }
    : { action: { text: s.text, postbackData: s.text, openUrlAction: { url: s.url } } };
}

/** The AgentMessage for Ecoa's RCS content: a text, or a standalone rich card, with suggestions. */
export function agentMessage(content: Extract<OutboundContent, { kind: 'rcs' }>) {
  const suggestions = content.suggestions?.length ? { suggestions: content.suggestions.map(suggestion) } : {};
  if (content.card) {
    const card = content.card;
    return {
      contentMessage: {
        richCard: {
          standaloneCard: {
            cardOrientation: 'VERTICAL',
            cardContent: {
              title: card.title,
              ...(card.description ? { description: card.description } : {}),
              ...(card.imageUrl ? { media: { height: 'MEDIUM', contentInfo: { fileUrl: card.imageUrl } } } : {}),
              ...(card.suggestions?.length ? { suggestions: card.suggestions.map(suggestion) } : {}),
            },
          },
        },
        ...suggestions,
      },
    };
  }
  return { contentMessage: { text: content.text ?? '', ...suggestions } };
}

/** Google's error body (`google.rpc.Status` as JSON). */
export function googleError(code: number, status: string, message: string) {
  return { error: { code, message, status } };
}

/** The envelope RBM posts to the webhook, and its signature header. */
export function rbmDelivery(clientToken: string, agentId: string, payload: object) {
  const data = Buffer.from(JSON.stringify(payload));
  const body = JSON.stringify({
    message: {
      data: data.toString('base64'),
      messageId: String(crypto.randomInt(1e12, 9e12)),
      publishTime: new Date().toISOString(),
    },
    subscription: `projects/rbm-${agentId.split('@')[0]}/subscriptions/rbm-agent-subscription`,
  });
  return { body, signature: signRcsData(clientToken, data) };
}

export type RbmEventType = 'DELIVERED' | 'READ' | 'IS_TYPING';

/** A user event about one of the agent's messages. */
export function userEvent(input: { agentId: string; phone: string; messageId: string; type: RbmEventType; at: Date }) {
  return {
    senderPhoneNumber: input.phone,
    eventType: input.type,
    eventId: crypto.randomUUID(),
    messageId: input.messageId,
    sendTime: input.at.toISOString(),
    agentId: input.agentId,
  };
}

/** A text a user sent to the agent. */
export function userMessage(input: { agentId: string; phone: string; text: string; at: Date }) {
  return {
    senderPhoneNumber: input.phone,
    messageId: crypto.randomUUID(),
    sendTime: input.at.toISOString(),
    text: input.text,
    agentId: input.agentId,
  };
}
