/**
 * Reads the TwiML a call fetches, as strictly as a carrier: well-formed XML (the lists module's
 * tokenizer, which refuses DOCTYPE and unknown entities), a <Response> root, and only the verbs
 * Ecoa uses — <Play>, <Say>, <Pause>, <Hangup>, and <Gather> around <Play>/<Say>/<Pause>. Anything
 * else is an error, which the simulator turns into a failed call, so a broken document shows up in
 * tests instead of on a customer's phone.
 */
import { type XmlAttributes, XmlTokenizer } from '../../../../../platform/xml/xml.ts';

export type PromptVerb =
  | { verb: 'Play'; url: string }
  | { verb: 'Say'; text: string; language: string | undefined; voice: string | undefined }
  | { verb: 'Pause' };
export type GatherVerb = {
  verb: 'Gather';
  /** Absolute: a relative action is resolved against the document's URL, as carriers do. */
  action: string;
  method: 'GET' | 'POST';
  numDigits: number;
  prompts: PromptVerb[];
};
export type TwimlVerb = PromptVerb | GatherVerb | { verb: 'Hangup' };

export class TwimlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TwimlError';
  }
}

const MAX_VERBS = 50;

export function readTwiml(document: Buffer, documentUrl: string): TwimlVerb[] {
  const verbs: TwimlVerb[] = [];
  const stack: string[] = [];
  let text = '';
  let gather: GatherVerb | null = null;
  let pending: TwimlVerb | null = null;
  let elements = 0;

  const handler = {
    wantText: true,
    open(name: string, attributes: XmlAttributes) {
      const parent = stack.at(-1);
      stack.push(name);
      text = '';
      if (parent === undefined) {
        if (name !== 'Response') throw new TwimlError(`the root is <${name}>, not <Response>`);
        return;
      }
      const nested = parent === 'Gather';
      if (parent !== 'Response' && !nested) throw new TwimlError(`<${name}> inside <${parent}>`);
      if (++elements > MAX_VERBS) throw new TwimlError('too many verbs');
      if (name === 'Gather' && !nested) {
        gather = {
          verb: 'Gather',
          action: resolve(attributes.get('action') ?? documentUrl, documentUrl),
          method: methodOf(attributes.get('method')),
          numDigits: numberOf(attributes.get('numDigits') ?? '1', 'numDigits'),
          prompts: [],
        };
        if (attributes.get('timeout') !== undefined) numberOf(attributes.get('timeout')!, 'timeout');
      } else if (name === 'Say') {
        pending = { verb: 'Say', text: '', language: attributes.get('language'), voice: attributes.get('voice') };
      } else if (name === 'Play' || name === 'Pause' || (name === 'Hangup' && !nested)) {
        pending = { verb: name } as TwimlVerb;
      } else throw new TwimlError(`<${name}> is not a verb this carrier plays${nested ? ' inside <Gather>' : ''}`);
    },
    text(value: string) {
      text += value;
    },
    close(name: string) {
      stack.pop();
      if (name === 'Response') return;
      if (name === 'Gather') {
        verbs.push(gather!);
        gather = null;
        return;
      }
      const verb = finish(pending!, text, documentUrl);
      pending = null;
      if (gather) gather.prompts.push(verb as PromptVerb);
      else verbs.push(verb);
    },
  };

  const tokenizer = new XmlTokenizer(handler, 64 * 1024);
  try {
    tokenizer.write(document);
    tokenizer.end();
  } catch (error) {
    if (error instanceof TwimlError) throw error;
    throw new TwimlError(`not well-formed XML: ${(error as Error).message}`);
  }
  return verbs;
}

function finish(verb: TwimlVerb, text: string, documentUrl: string): TwimlVerb {
  if (verb.verb === 'Play') {
    const url = text.trim();
    if (!url) throw new TwimlError('<Play> without a URL');
    return { verb: 'Play', url: resolve(url, documentUrl) };
  }
  if (verb.verb === 'Say') {
    if (!text.trim()) throw new TwimlError('<Say> without text');
    return { ...verb, text };
  }
  if (text.trim()) throw new TwimlError(`<${verb.verb}> with text`);
  return verb;
}

function resolve(url: string, base: string): string {
  try {
    const resolved = new URL(url, base);
    if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') throw new Error(resolved.protocol);
    return resolved.href;
  } catch {
    throw new TwimlError(`"${url.slice(0, 100)}" is not a URL`);
  }
}

function methodOf(value: string | undefined): 'GET' | 'POST' {
  if (value === undefined || value === 'POST') return 'POST';
  if (value === 'GET') return 'GET';
  throw new TwimlError(`method="${value.slice(0, 20)}"`);
}

function numberOf(value: string, attribute: string): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1) throw new TwimlError(`${attribute}="${value.slice(0, 20)}"`);
  return Number(value);
}
