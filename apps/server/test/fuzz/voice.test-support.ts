/**
 * What a Twilio-compatible carrier sends the voice webhooks and answers its calls API with, as
 * it should and as it breaks: status callback and <Gather> forms (real statuses and nonsense,
 * durations, digits, timestamps, tricky text), call scripts (the JSON behind the TwiML URL), and
 * the calls API's own answers (the call resource, error JSON).
 */
import fc from 'fast-check';

const tricky = fc.constantFrom('', '\u0000', '\ud800', '\ufffe', '<Say>', '&amp;', '%', '%ZZ', '+', '😀', 'ção', ' ');
const text = fc.oneof(fc.string({ maxLength: 40 }), tricky, fc.string({ unit: 'binary', maxLength: 12 }));
const callSid = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^CA[0-9a-f]{32}$/) },
  { weight: 1, arbitrary: text },
);

function form(pairs: Array<[string, string]>): Buffer {
  return Buffer.from(new URLSearchParams(pairs).toString());
}

const commonParams = fc.tuple(callSid, fc.constantFrom('+5511912345678', '', '5511', '+55 11')).map(
  ([sid, to]): Array<[string, string]> => [
    ['AccountSid', 'AC00000000000000000000000000000000'],
    ['ApiVersion', '2010-04-01'],
    ['CallSid', sid],
    ['Direction', 'outbound-api'],
    ['From', '+551140040000'],
    ['To', to],
  ],
);

export const statusForms: fc.Arbitrary<Buffer> = fc
  .tuple(
    commonParams,
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom('queued', 'initiated', 'ringing', 'in-progress', 'completed', 'busy') },
      { weight: 3, arbitrary: fc.constantFrom('no-answer', 'failed', 'canceled') },
      { weight: 1, arbitrary: text },
    ),
    fc.oneof(fc.nat({ max: 100_000 }).map(String), fc.constantFrom('-1', '1e9', '999999999', '3.5', ''), text),
    fc.oneof(
      fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toUTCString())),
      text,
    ),
    fc.option(fc.constantFrom('human', 'machine_start', 'fax', 'unknown'), { nil: undefined }),
  )
  .map(([base, callStatus, duration, timestamp, answeredBy]) =>
    form([
      ...base,
      ['CallStatus', callStatus],
      ['CallDuration', duration],
      ['Timestamp', timestamp],
      ['CallbackSource', 'call-progress-events'],
      ['SequenceNumber', '3'],
      ...(answeredBy ? [['AnsweredBy', answeredBy] as [string, string]] : []),
    ]),
  );

export const gatherForms: fc.Arbitrary<Buffer> = fc
  .tuple(
    commonParams,
    fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[0-9*#]{0,3}$/) }, { weight: 1, arbitrary: text }),
  )
  .map(([base, digits]) => form([...base, ['CallStatus', 'in-progress'], ['Digits', digits]]));

const prompt = fc.oneof(
  fc.record({
    tts: fc.oneof(fc.string({ minLength: 1, maxLength: 200 }), fc.constantFrom('Olá <você> & "eu"', ']]>')),
  }),
  fc.record({ audioUrl: fc.webUrl({ withQueryParameters: true, withFragments: true }) }),
);
const validScript = fc
  .tuple(
    prompt,
    fc.option(
      fc.record({
        options: fc.uniqueArray(fc.constantFrom('0', '1', '2', '9', '*', '#'), { maxLength: 6 }),
        timeout: fc.integer({ min: 1, max: 30 }),
      }),
      { nil: undefined },
    ),
  )
  .map(([p, menu]) => ({ ...p, ...menu }));

/** The JSON a call script decodes from, valid (mostly) and not. */
export const scriptJson: fc.Arbitrary<Buffer> = fc
  .oneof(
    { weight: 3, arbitrary: validScript },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          tts: fc.oneof(fc.string({ maxLength: 200 }), text),
          audioUrl: fc.oneof(fc.webUrl({ withQueryParameters: true }), text),
          options: fc.array(fc.oneof(fc.constantFrom('1', '2', '9', '*', '#'), text), { maxLength: 13 }),
          timeout: fc.oneof(fc.integer({ min: -5, max: 40 }), fc.double()),
        },
        { requiredKeys: [] },
      ),
    },
  )
  .map((script) => Buffer.from(JSON.stringify(script)));

/** The calls API's answers: the call resource and Twilio's error JSON. */
export const apiAnswers: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .stringMatching(/^CA[0-9a-f]{32}$/)
    .map((sid) =>
      Buffer.from(JSON.stringify({ sid, status: 'queued', to: '+5511912345678', direction: 'outbound-api' })),
    ),
  fc
    .tuple(fc.constantFrom(20003, 20404, 20429, 21211, 21214, 21215, 20500), text)
    .map(([code, message]) =>
      Buffer.from(
        JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status: 400 }),
      ),
    ),
);

/** The status line the carrier answers with, chosen by an input's first byte. */
export const API_STATUSES = [200, 201, 202, 400, 401, 404, 429, 500, 502, 503] as const;
