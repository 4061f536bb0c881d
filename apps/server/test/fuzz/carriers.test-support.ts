/**
 * What carriers send Ecoa, valid and nearly valid, for the webhook and API-answer fuzz targets:
 * WhatsApp notifications (statuses, inbound texts), RBM payloads (user events, user messages),
 * the Cloud API's and RBM's answers to a send, and Google's token answers. Fields take odd
 * values (control characters, lone surrogates, huge strings, wrong types) so the parsers meet
 * what a broken proxy or a forger could produce.
 */
import fc from 'fast-check';
import {
  statusNotification,
  textMessageNotification,
} from '../../src/modules/channels/providers/whatsapp/whatsapp.wire.ts';

export const WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
export const RCS_AGENT_ID = 'ecoa-simulador_abcd1234_agent@rbm.goog';

const odd = fc.constantFrom(
  '',
  '\u0000',
  '\u0007\u001b[31m',
  '\ud800',
  '\ufffe',
  '😀👍🏽',
  'José Conceição',
  '<script>alert(1)</script>',
  '9'.repeat(40),
  '-1',
  '1e309',
);
/** Any JSON value, now and then the wrong type where a string or number belongs. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: odd },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(null, true, [], {}, 1.5, -0) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
);
const maybe = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: anything });

const digits = fc.integer({ min: 10_000_000, max: 99_999_999 }).map((n) => `55119${n}`);
const unixSeconds = fc.integer({ min: 0, max: 4_102_444_800 });
const isoTime = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString());

const whatsappStatus = fc
  .record({
    wamid: maybe(fc.string({ minLength: 1, maxLength: 60 }).map((s) => `wamid.${s}`)),
    status: maybe(fc.constantFrom('sent', 'delivered', 'read', 'failed', 'deleted', 'warning')),
    timestamp: maybe(unixSeconds.map(String)),
    code: maybe(fc.constantFrom(131026, 131047, 131000, 130429, 0, 2 ** 53)),
    recipient: maybe(digits),
    phoneNumberId: fc.constantFrom(WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_PHONE_NUMBER_ID, '999'),
  })
  .map((f) => {
    const doc = statusNotification({
      phoneNumberId: f.phoneNumberId,
      wamid: 'w',
      status: 'failed',
      timestamp: 0,
      recipient: '1',
      error: { code: 1, title: 't' },
    });
    const status = (doc.entry[0]!.changes[0]!.value as unknown as { statuses: Record<string, unknown>[] }).statuses[0]!;
    Object.assign(status, { id: f.wamid, status: f.status, timestamp: f.timestamp, recipient_id: f.recipient });
    (status.errors as Record<string, unknown>[])[0]!.code = f.code;
    return doc;
  });

const whatsappText = fc
  .record({
    from: maybe(digits),
    text: maybe(fc.string({ maxLength: 200 })),
    timestamp: maybe(unixSeconds.map(String)),
  })
  .map((f) => {
    const doc = textMessageNotification({
      phoneNumberId: WHATSAPP_PHONE_NUMBER_ID,
      from: '1',
      text: '',
      wamid: 'w',
      timestamp: 0,
    });
    const message = (doc.entry[0]!.changes[0]!.value as unknown as { messages: Record<string, unknown>[] })
      .messages[0]!;
    Object.assign(message, { from: f.from, timestamp: f.timestamp, text: { body: f.text } });
    return doc;
  });

/** WhatsApp messages-webhook bodies, one to three notifications' worth of changes. */
export const whatsappNotificationBytes: fc.Arbitrary<Buffer> = fc
  .array(fc.oneof(whatsappStatus, whatsappText), { minLength: 1, maxLength: 3 })
  .map((docs) => {
    const [first, ...rest] = docs;
    for (const doc of rest) first!.entry.push(...doc.entry);
    return Buffer.from(JSON.stringify(first));
  });

/** RBM payloads (the JSON inside `message.data`). */
export const rbmPayloadBytes: fc.Arbitrary<Buffer> = fc
  .oneof(
    fc.record({
      senderPhoneNumber: maybe(digits.map((d) => `+${d}`)),
      eventType: maybe(fc.constantFrom('DELIVERED', 'READ', 'IS_TYPING', 'TTL_EXPIRATION_REVOKED', 'SUBSCRIBE')),
      eventId: maybe(fc.uuid()),
      messageId: maybe(fc.uuid()),
      sendTime: maybe(isoTime),
      agentId: fc.constantFrom(RCS_AGENT_ID, RCS_AGENT_ID, 'other@rbm.goog'),
    }),
    fc.record({
      senderPhoneNumber: maybe(digits.map((d) => `+${d}`)),
      messageId: maybe(fc.uuid()),
      sendTime: maybe(isoTime),
      text: maybe(fc.string({ maxLength: 200 })),
      suggestionResponse: maybe(fc.record({ text: maybe(fc.string({ maxLength: 30 })), postbackData: anything })),
      agentId: fc.constant(RCS_AGENT_ID),
    }),
  )
  .map((payload) => Buffer.from(JSON.stringify(payload)));

/** An HTTP status a carrier (or a proxy in front of it) could answer. */
export const httpStatus = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(200, 400, 401, 403, 404, 409, 429, 500, 502, 503, 504) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) },
);

/** The Cloud API's answers to a send: a wamid, or a Graph error. */
export const whatsappAnswerBytes: fc.Arbitrary<Buffer> = fc
  .oneof(
    fc.record({
      messaging_product: maybe(fc.constant('whatsapp')),
      messages: maybe(fc.array(fc.record({ id: maybe(fc.string({ minLength: 1, maxLength: 80 })) }), { maxLength: 2 })),
    }),
    fc.record({
      error: maybe(
        fc.record({
          message: anything,
          type: maybe(fc.constant('OAuthException')),
          code: maybe(fc.oneof(fc.constantFrom(190, 130429, 131026, 131047, 132001), fc.integer())),
          fbtrace_id: anything,
        }),
      ),
    }),
  )
  .map((answer) => Buffer.from(JSON.stringify(answer)));

/** RBM's answers to agentMessages.create: an AgentMessage, or a google.rpc.Status. */
export const rcsAnswerBytes: fc.Arbitrary<Buffer> = fc
  .oneof(
    fc.record({ name: anything, sendTime: maybe(isoTime) }),
    fc.record({
      error: maybe(
        fc.record({
          code: maybe(fc.integer({ min: 100, max: 599 })),
          message: anything,
          status: maybe(
            fc.constantFrom('NOT_FOUND', 'ALREADY_EXISTS', 'INVALID_ARGUMENT', 'RESOURCE_EXHAUSTED', 'a b'),
          ),
        }),
      ),
    }),
  )
  .map((answer) => Buffer.from(JSON.stringify(answer)));

/** Google's token endpoint answers. */
export const tokenAnswerBytes: fc.Arbitrary<Buffer> = fc
  .oneof(
    fc.record({
      access_token: maybe(fc.string({ minLength: 1, maxLength: 100 })),
      expires_in: maybe(fc.oneof(fc.integer({ min: -10, max: 100_000 }), fc.double())),
      token_type: maybe(fc.constant('Bearer')),
    }),
    fc.record({ error: maybe(fc.constantFrom('invalid_grant', 'unauthorized_client')), error_description: anything }),
  )
  .map((answer) => Buffer.from(JSON.stringify(answer)));
