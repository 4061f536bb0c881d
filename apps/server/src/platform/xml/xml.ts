/**
 * A small streaming XML tokenizer for the subset spreadsheets use: elements, attributes, text,
 * CDATA, comments and processing instructions; the five predefined entities and numeric
 * character references. Nothing else: a DOCTYPE or ENTITY declaration is refused, any other
 * entity is an error, so nothing is ever expanded. Names are given without their namespace
 * prefix (`x:c` → `c`).
 *
 * Input arrives in byte chunks (UTF-8, or UTF-16LE with its BOM); each tag and each text run is
 * handed to the handler whole, so a token is held until its end arrives, up to `maxTokenChars`.
 * The handler may set `paused` to stop after the current event (`resume()` goes on).
 */

import { TextDecoder } from 'node:util';

export interface XmlHandler {
  /** Read before each text run: when false the text is skipped without being decoded. */
  wantText: boolean;
  open(name: string, attributes: XmlAttributes): void;
  /** Also called right after `open` for a self-closing element. */
  close(name: string): void;
  text(text: string): void;
}

/** Not well-formed, or a construct this tokenizer refuses (DOCTYPE, ENTITY, unknown entities). */
export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

/** A token (a tag, a text run, a comment) longer than allowed. */
export class XmlLimitError extends Error {
  readonly limit = 'xmlToken';
  constructor(
    readonly value: number,
    readonly max: number,
  ) {
    super(`XML token longer than ${max} characters`);
    this.name = 'XmlLimitError';
  }
}

/**
 * The current element's attributes, read in place from the tokenizer's buffer: valid only
 * during `open` (read them there). Nothing is copied until a value is asked for.
 */
export class XmlAttributes {
  count = 0;
  private src = '';
  /** Per attribute: local name start and end, value start and end. */
  private readonly at: number[] = [];

  reset(src: string): void {
    this.src = src;
    this.count = 0;
  }

  add(nameStart: number, nameEnd: number, valueStart: number, valueEnd: number): void {
    const k = this.count++ * 4;
    this.at[k] = nameStart;
    this.at[k + 1] = nameEnd;
    this.at[k + 2] = valueStart;
    this.at[k + 3] = valueEnd;
  }

  /** The value of the attribute with this local name (entities decoded), if present. */
  get(name: string): string | undefined {
    const at = this.at;
    for (let k = 0; k < this.count * 4; k += 4) {
      if (at[k + 1]! - at[k]! === name.length && this.src.startsWith(name, at[k]!)) {
        return decodeText(this.src.slice(at[k + 2]!, at[k + 3]!));
      }
    }
    return undefined;
  }
}

const LT = 60;
const GT = 62;
const SLASH = 47;
const BANG = 33;
const QUESTION = 63;
const EQ = 61;
const DQ = 34;
const SQ = 39;
const COLON = 58;
const MAX_DEPTH = 256;

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

/** `prefix:name` → `name`. */
function localName(s: string, start: number, end: number): string {
  for (let i = start; i < end; i++) if (s.charCodeAt(i) === COLON) return s.slice(i + 1, end);
  return s.slice(start, end);
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NUMERIC = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/;

/** XML's allowed characters: tab, newline, carriage return, and the rest minus surrogates and U+FFFE/F. */
function isXmlChar(cp: number): boolean {
  return (
    cp === 9 ||
    cp === 10 ||
    cp === 13 ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Resolves the five predefined entities and character references; any other entity is refused. */
export function decodeText(raw: string): string {
  let text = raw.indexOf('\r') === -1 ? raw : raw.replace(/\r\n?/g, '\n');
  let amp = text.indexOf('&');
  if (amp === -1) return text;
  let out = '';
  let last = 0;
  while (amp !== -1) {
    const semi = text.indexOf(';', amp + 1);
    if (semi === -1 || semi - amp > 10) throw new XmlError('an "&" that starts no entity');
    const name = text.slice(amp + 1, semi);
    let value = PREDEFINED[name];
    if (value === undefined) {
      const m = NUMERIC.exec(name);
      if (!m) throw new XmlError(`entity &${name}; is not allowed`);
      const cp = m[1] ? Number.parseInt(m[1], 16) : Number.parseInt(m[2]!, 10);
      if (!isXmlChar(cp)) throw new XmlError(`character reference &${name}; is not an XML character`);
      value = String.fromCodePoint(cp);
    }
    out += text.slice(last, amp) + value;
    last = semi + 1;
    amp = text.indexOf('&', last);
  }
  text = out + text.slice(last);
  return text;
}

export class XmlTokenizer {
  /** Set by the handler to stop after the current event; `resume()` goes on. */
  paused = false;
  private buf = '';
  private decoder: TextDecoder | undefined;
  private readonly stack: string[] = [];
  private depth = 0;
  private sawRoot = false;
  private readonly attributes = new XmlAttributes();

  constructor(
    private readonly handler: XmlHandler,
    private readonly maxTokenChars = 1024 * 1024,
  ) {}

  write(chunk: Uint8Array): void {
    if (!this.decoder) {
      if (chunk[0] === 0xfe && chunk[1] === 0xff) throw new XmlError('UTF-16BE parts are not supported');
      const utf16 = chunk[0] === 0xff && chunk[1] === 0xfe;
      this.decoder = new TextDecoder(utf16 ? 'utf-16le' : 'utf-8', { fatal: true });
    }
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      throw new XmlError('invalid UTF-8');
    }
    this.buf = this.buf.length === 0 ? text : this.buf + text;
    this.parse();
  }

  resume(): void {
    this.paused = false;
    this.parse();
  }

  /** All input given: the rest is parsed (pauses ignored) and the document must be complete. */
  end(): void {
    if (this.decoder) {
      try {
        this.buf += this.decoder.decode();
      } catch {
        throw new XmlError('invalid UTF-8');
      }
    }
    do {
      this.paused = false;
      this.parse();
    } while (this.paused);
    if (this.depth > 0 || !this.sawRoot || this.buf.trim() !== '') throw new XmlError('the XML ends early');
  }

  private parse(): void {
    const s = this.buf;
    const n = s.length;
    const handler = this.handler;
    let i = 0;
    while (i < n && !this.paused) {
      if (s.charCodeAt(i) !== LT) {
        const lt = s.indexOf('<', i);
        if (lt === -1) break; // the text goes on in the next chunk
        if (handler.wantText && this.depth > 0) handler.text(decodeText(s.slice(i, lt)));
        i = lt;
        continue;
      }
      if (i + 1 >= n) break;
      const c = s.charCodeAt(i + 1);
      if (c === SLASH) {
        const gt = s.indexOf('>', i + 2);
        if (gt === -1) break;
        let end = gt;
        while (end > i + 2 && isSpace(s.charCodeAt(end - 1))) end--;
        const name = localName(s, i + 2, end);
        if (this.depth === 0 || this.stack[this.depth - 1] !== name) throw new XmlError(`unexpected </${name}>`);
        this.depth--;
        handler.close(name);
        i = gt + 1;
      } else if (c === QUESTION) {
        const end = s.indexOf('?>', i + 2);
        if (end === -1) break;
        i = end + 2;
      } else if (c === BANG) {
        if (s.startsWith('<!--', i)) {
          const end = s.indexOf('-->', i + 4);
          if (end === -1) break;
          i = end + 3;
        } else if (s.startsWith('<![CDATA[', i)) {
          const end = s.indexOf(']]>', i + 9);
          if (end === -1) break;
          if (handler.wantText && this.depth > 0) handler.text(s.slice(i + 9, end));
          i = end + 3;
        } else if (s.startsWith('<!DOCTYPE', i) || s.startsWith('<!ENTITY', i)) {
          throw new XmlError('DOCTYPE and ENTITY declarations are not allowed');
        } else if (n - i < 9) {
          break; // not enough yet to tell which declaration this is
        } else {
          throw new XmlError('unexpected markup declaration');
        }
      } else {
        const next = this.openTag(s, i, n);
        if (next < 0) break;
        i = next;
      }
    }
    this.buf = i >= n ? '' : s.slice(i);
    if (this.buf.length > this.maxTokenChars) throw new XmlLimitError(this.buf.length, this.maxTokenChars);
  }

  /** Parses `<name attr="v" …>` at `i`; returns the index after it, or -1 when it is not complete yet. */
  private openTag(s: string, i: number, n: number): number {
    let j = i + 1;
    let c = 0;
    let nameStart = j;
    while (j < n) {
      c = s.charCodeAt(j);
      if (c === GT || c === SLASH || isSpace(c)) break;
      if (c === COLON) nameStart = j + 1;
      j++;
    }
    if (j >= n) return -1;
    if (j === i + 1) throw new XmlError('a tag without a name');
    const name = s.slice(nameStart, j);
    const attributes = this.attributes;
    attributes.reset(s);
    let selfClosing = false;
    for (;;) {
      while (j < n && isSpace(s.charCodeAt(j))) j++;
      if (j >= n) return -1;
      c = s.charCodeAt(j);
      if (c === GT) {
        j++;
        break;
      }
      if (c === SLASH) {
        if (j + 1 >= n) return -1;
        if (s.charCodeAt(j + 1) !== GT) throw new XmlError(`malformed <${name}>`);
        selfClosing = true;
        j += 2;
        break;
      }
      const start = j;
      let localStart = j;
      while (j < n) {
        c = s.charCodeAt(j);
        if (c === EQ || c === GT || c === SLASH || isSpace(c)) break;
        if (c === COLON) localStart = j + 1;
        j++;
      }
      const end = j;
      while (j < n && isSpace(s.charCodeAt(j))) j++;
      if (j >= n) return -1;
      if (s.charCodeAt(j) !== EQ || end === start) throw new XmlError(`malformed attribute in <${name}>`);
      j++;
      while (j < n && isSpace(s.charCodeAt(j))) j++;
      if (j >= n) return -1;
      const quote = s.charCodeAt(j);
      if (quote !== DQ && quote !== SQ) throw new XmlError(`unquoted attribute in <${name}>`);
      const close = s.indexOf(quote === DQ ? '"' : "'", j + 1);
      if (close === -1) return -1;
      attributes.add(localStart, end, j + 1, close);
      j = close + 1;
    }
    if (this.depth === 0) {
      if (this.sawRoot) throw new XmlError('more than one root element');
      this.sawRoot = true;
    }
    if (selfClosing) {
      this.handler.open(name, attributes);
      this.handler.close(name);
    } else {
      if (this.depth >= MAX_DEPTH) throw new XmlError('elements nested too deep');
      this.stack[this.depth++] = name;
      this.handler.open(name, attributes);
    }
    return j;
  }
}
