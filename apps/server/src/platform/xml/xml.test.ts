import { describe, expect, it } from 'vitest';
import { type XmlAttributes, XmlError, type XmlHandler, XmlLimitError, XmlTokenizer } from './xml.ts';

/** Records every event as a line; text is always wanted. */
class Recorder implements XmlHandler {
  wantText = true;
  events: string[] = [];
  constructor(private readonly attributeNames: string[] = []) {}
  open(name: string, a: XmlAttributes): void {
    const attrs = this.attributeNames.map((n) => a.get(n)).filter((v) => v !== undefined);
    this.events.push(`<${name}${attrs.length ? ` ${attrs.join('|')}` : ''}>`);
  }
  close(name: string): void {
    this.events.push(`</${name}>`);
  }
  text(text: string): void {
    const last = this.events.length - 1;
    if (this.events[last]?.startsWith('"')) this.events[last] = `"${this.events[last]!.slice(1, -1)}${text}"`;
    else this.events.push(`"${text}"`);
  }
}

function tokenize(xml: string | Buffer, options: { chunk?: number; attributes?: string[]; maxToken?: number } = {}) {
  const bytes = typeof xml === 'string' ? Buffer.from(xml) : xml;
  const recorder = new Recorder(options.attributes);
  const tokenizer = new XmlTokenizer(recorder, options.maxToken);
  const chunk = options.chunk ?? bytes.length;
  for (let i = 0; i < bytes.length; i += chunk) tokenizer.write(bytes.subarray(i, i + chunk));
  tokenizer.end();
  return recorder.events;
}

describe('XmlTokenizer', () => {
  const doc =
    '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment <x> -->' +
    '<x:sst xmlns:x="urn:x" count=\'2\'><x:si><t xml:space="preserve"> Ana &amp; Zé &#233;&#x1F600; </t></x:si>' +
    '<si><t><![CDATA[<b>&amp;</b>]]></t><empty a="1 &lt; 2" /></si></x:sst>';

  it('gives elements (without prefix), attributes, decoded text, CDATA as is', () => {
    expect(tokenize(doc, { attributes: ['count', 'space', 'a'] })).toEqual([
      '<sst 2>',
      '<si>',
      '<t preserve>',
      '" Ana & Zé é😀 "',
      '</t>',
      '</si>',
      '<si>',
      '<t>',
      '"<b>&amp;</b>"',
      '</t>',
      '<empty 1 < 2>',
      '</empty>',
      '</si>',
      '</sst>',
    ]);
  });

  it('gives the same events whatever the chunk boundaries, also inside multi-byte characters', () => {
    const whole = tokenize(doc);
    for (const chunk of [1, 2, 3, 5, 7, 13]) expect(tokenize(doc, { chunk }), `chunk ${chunk}`).toEqual(whole);
  });

  it('reads UTF-16LE parts with their BOM, normalises line ends', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<a>olá\r\nmundo\r</a>', 'utf16le')]);
    expect(tokenize(utf16, { chunk: 3 })).toEqual(['<a>', '"olá\nmundo\n"', '</a>']);
    expect(tokenize(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<a/>')]))).toEqual(['<a>', '</a>']);
  });

  it('refuses DOCTYPE and ENTITY declarations: nothing is ever expanded', () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><lolz>&lol2;</lolz>';
    expect(() => tokenize(laughs)).toThrow(/DOCTYPE/);
    expect(() => tokenize(laughs, { chunk: 4 })).toThrow(XmlError);
    const xxe = '<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>';
    expect(() => tokenize(xxe)).toThrow(/DOCTYPE/);
    expect(() => tokenize('<a><!ENTITY x "y"></a>')).toThrow(/ENTITY/);
  });

  it('refuses entities other than the five predefined, and bad character references', () => {
    expect(() => tokenize('<a>&nbsp;</a>')).toThrow(/&nbsp;/);
    expect(() => tokenize('<a b="&xxe;"/>', { attributes: ['b'] })).toThrow(/&xxe;/);
    expect(() => tokenize('<a>&#0;</a>')).toThrow(XmlError);
    expect(() => tokenize('<a>&#xD800;</a>')).toThrow(XmlError);
    expect(() => tokenize('<a>fish & chips</a>')).toThrow(XmlError);
  });

  it('refuses malformed documents: mismatched, unclosed, two roots, bad tags', () => {
    for (const bad of [
      '<a><b></a></b>',
      '<a><b>',
      '<a/><b/>',
      '<a b=1/>',
      '<a b/>',
      '< a/>',
      '<a>text',
      '',
      '<a></b>',
    ]) {
      expect(() => tokenize(bad), bad).toThrow(XmlError);
    }
    expect(() => tokenize(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x61, 0x3e]))).toThrow(/UTF-8/);
  });

  it('holds no token longer than its limit (a giant text run or tag)', () => {
    expect(() => tokenize(`<a>${'x'.repeat(5000)}</a>`, { maxToken: 1000, chunk: 100 })).toThrow(XmlLimitError);
    expect(() => tokenize(`<a b="${'x'.repeat(5000)}"/>`, { maxToken: 1000, chunk: 100 })).toThrow(XmlLimitError);
    expect(tokenize(`<a>${'x'.repeat(900)}</a>`, { maxToken: 1000, chunk: 100 })).toHaveLength(3);
  });

  it('skips unwanted text without decoding it, and pauses when the handler asks', () => {
    const events: string[] = [];
    let tokenizer: XmlTokenizer;
    const handler: XmlHandler = {
      wantText: false,
      open(name) {
        events.push(name);
        handler.wantText = name === 'v';
        if (name === 'row') tokenizer.paused = true;
      },
      close() {
        handler.wantText = false;
      },
      text(text) {
        events.push(text);
      },
    };
    tokenizer = new XmlTokenizer(handler);
    // `&bogus;` is outside any wanted text: never decoded, never refused.
    tokenizer.write(Buffer.from('<d>&bogus;<row><v>1</v></row><row><v>2</v></row></d>'));
    expect(events).toEqual(['d', 'row']);
    tokenizer.resume();
    expect(events).toEqual(['d', 'row', 'v', '1', 'row']);
    tokenizer.resume();
    tokenizer.end();
    expect(events).toEqual(['d', 'row', 'v', '1', 'row', 'v', '2']);
  });
});
