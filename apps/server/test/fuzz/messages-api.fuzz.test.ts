import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { bearer, makeAdmin, signUpAndSignIn } from '../factories.test-support.ts';
import { createTestServer, dbKind } from '../server.test-support.ts';
import { type FuzzOutcome, fuzz } from './harness.test-support.ts';

const BUDGET = { runs: 300, timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000, maxRssGrowthMb: 300 };
/** A request refused is refused with one of these (its content's, its recipient's, its schedule's, the balance's). */
const CODES = [
  'VALIDATION_FAILED',
  'TEXT_INVALID_CHARACTERS',
  'INVALID_PHONE',
  'MOBILE_REQUIRED',
  'TEXT_REQUIRED',
  'TEMPLATE_REQUIRED',
  'RCS_CONTENT_REQUIRED',
  'RCS_CONTENT_AMBIGUOUS',
  'VOICE_PROMPT_REQUIRED',
  'VOICE_PROMPT_AMBIGUOUS',
  'AUDIO_NOT_FOUND',
  'SCHEDULE_IN_PAST',
  'INSUFFICIENT_BALANCE',
  'IDEMPOTENCY_KEY_REUSED',
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
];
const CREDITS = 1_000_000;

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    'Olá {nome}',
    '{telefone}',
    'x'.repeat(1601),
    '\u0000',
    '\ud800',
    'a\u202eb',
    '😀'.repeat(90),
  ),
);
const phone = fc.oneof(
  fc.constantFrom('11987654321', '+5511987654321', '(21) 99876-5432', '1133334444', '0', '', '+1 202 555 0100'),
  fc.string({ maxLength: 20 }),
  fc.integer({ min: 11_900_000_000, max: 11_999_999_999 }).map(String),
);
const anything = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null), fc.boolean(), fc.constant({}));
const content = fc.record(
  {
    channel: fc.oneof(
      fc.constantFrom('sms_short', 'sms_flash', 'whatsapp', 'rcs', 'voice_torpedo', 'ura', 'fax'),
      anything,
    ),
    text: hostileText,
    template: fc.oneof(
      fc.record({
        name: fc.constantFrom('pedido', 'Nome Ruim', ''),
        language: fc.constantFrom('pt_BR', 'xx'),
        params: fc.array(hostileText, { maxLength: 3 }),
      }),
      anything,
    ),
    tts: hostileText,
    audioId: fc.oneof(fc.uuid(), anything),
    rcs: fc.oneof(fc.record({ text: hostileText }), fc.record({ card: fc.record({ title: hostileText }) }), anything),
    scheduledAt: fc.oneof(
      fc.constantFrom('2020-01-01T00:00:00Z', '2099-01-01T00:00:00Z', 'amanhã', ''),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    ),
    window: fc.oneof(fc.constant({ days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' }), anything),
  },
  { requiredKeys: ['channel'] },
);
const recipient = fc.record(
  {
    to: fc.oneof(phone, anything),
    variables: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), hostileText, { maxKeys: 3 }), anything),
    externalId: fc.oneof(hostileText, anything),
  },
  { requiredKeys: ['to'] },
);

/** A body a client would plausibly send (only its numbers, variables and references hostile): most are queued. */
const plausible = fc.record({
  channel: fc.constantFrom('sms_short', 'sms_flash'),
  text: fc.constantFrom('Olá {nome}, seu pedido saiu', 'Oi', 'Código: {codigo}', 'Fatura {telefone}'),
  scheduledAt: fc.constant('2099-01-01T12:00:00Z'),
  messages: fc.array(
    fc.record(
      {
        to: phone,
        variables: fc.dictionary(fc.constantFrom('nome', 'codigo', 'x'), hostileText, { maxKeys: 2 }),
        externalId: fc.string({ minLength: 1, maxLength: 20 }),
      },
      { requiredKeys: ['to'] },
    ),
    { minLength: 1, maxLength: 30 },
  ),
});

type Input = { route: 'single' | 'batch'; body: unknown; key?: string };
const inputs: fc.Arbitrary<Input> = fc.oneof(
  { weight: 3, arbitrary: plausible.map((body): Input => ({ route: 'batch', body })) },
  {
    weight: 2,
    arbitrary: plausible.map(({ messages, ...c }): Input => ({ route: 'single', body: { ...c, ...messages[0] } })),
  },
  fc
    .tuple(content, recipient, fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: undefined }))
    .map(([c, r, key]): Input => ({ route: 'single', body: { ...c, ...r }, key })),
  fc
    .tuple(
      content,
      fc.oneof(fc.array(recipient, { maxLength: 30 }), anything),
      fc.option(fc.constantFrom('b1', 'b2'), { nil: undefined }),
    )
    .map(([c, messages, key]): Input => ({ route: 'batch', body: { ...c, messages }, key })),
);

/** The sending API's JSON bodies, hostile: each accepted (202, every number accounted for) or refused with its code. */
describe(`fuzzing the sending API's bodies (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;

  beforeAll(async () => {
    server = await createTestServer({ isolated: true });
    const account = await signUpAndSignIn(server);
    token = account.token;
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    for (const type of ['SMSSHORT', 'SMSFLASH', 'URA', 'WHATSAPP', 'RCS'] as const)
      await server.modules.ledger.adjust({
        userId: account.user.id,
        type,
        amount: CREDITS,
        actorUserId: admin.user.id,
        reason: 'fuzz',
      });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function feed(input: Input): Promise<FuzzOutcome> {
    const res = await server.app.inject({
      method: 'POST',
      url: input.route === 'single' ? '/api/v1/messages' : '/api/v1/messages/batch',
      payload: input.body as object,
      headers: { ...bearer(token), ...(input.key ? { 'idempotency-key': input.key } : {}) },
    });
    if (res.statusCode !== 202) {
      const code = (res.json() as { code?: string }).code ?? 'NO_CODE';
      return { refused: res.statusCode >= 500 ? `HTTP_${res.statusCode}_${code}` : code };
    }
    const body = res.json();
    if (input.route === 'batch') {
      const sent = (input.body as { messages: unknown[] }).messages.length;
      expect(body.accepted.length + body.rejected.length).toBe(sent);
    } else expect(body).toMatchObject({ status: 'queued' });
    return { accepted: true };
  }

  it('every body is queued or refused with its code, never a 500', async () => {
    const result = await fuzz({ name: 'sending API', inputs, feed, codes: CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(10);
  });
});
