import { describe, expect, it } from 'vitest';
import { describeCharacter, firstDisallowedCharacter, sanitizeText } from './sanitize.ts';

describe('sanitizeText', () => {
  it('returns clean text untouched (the same string)', () => {
    for (const clean of ['', 'Maria', 'José da Conceição', 'Nome 😀 com emoji', '北京 客户', 'R$ 1.234,56 €']) {
      expect(sanitizeText(clean)).toBe(clean);
    }
  });

  it('drops NUL, other C0 controls, DEL and C1 controls', () => {
    expect(sanitizeText('Nome com \u0000 nulo')).toBe('Nome com  nulo');
    expect(sanitizeText('\u0001a\u0007b\u001bc\u007fd\u0085e\u009f')).toBe('abcde');
  });

  it('turns tabs and line breaks into one space, or keeps them in multiline text', () => {
    expect(sanitizeText('Rua A,\r\n123\tfundos')).toBe('Rua A, 123 fundos');
    expect(sanitizeText('linha 1\r\nlinha 2\tfim\u0000', { multiline: true })).toBe('linha 1\r\nlinha 2\tfim');
  });

  it('keeps surrogate pairs and drops lone surrogates and the noncharacters U+FFFE/U+FFFF', () => {
    const cases: [input: string, sanitized: string][] = [
      ['a\ud83d\ude00b', 'a\ud83d\ude00b'],
      ['a\ud83db', 'ab'],
      ['a\ude00b', 'ab'],
      ['x\ud83d', 'x'],
      ['\ufffeab\uffff', 'ab'],
    ];
    for (const [input, sanitized] of cases) expect(sanitizeText(input)).toBe(sanitized);
  });

  it('its output is always clean and survives JSON and UTF-8 round trips unchanged', () => {
    let all = '';
    for (let c = 0; c < 0x10000; c++) all += String.fromCharCode(c);
    const cleaned = sanitizeText(all, { multiline: true });
    expect(firstDisallowedCharacter(cleaned)).toBe(-1);
    expect(JSON.parse(JSON.stringify(cleaned))).toBe(cleaned);
    // encodeURIComponent throws on a lone surrogate: the text is valid UTF-8 material.
    expect(decodeURIComponent(encodeURIComponent(cleaned))).toBe(cleaned);
    expect(JSON.stringify(cleaned)).not.toMatch(/\\u(00[0-1][0-9a-f]|d[89a-f][0-9a-f]{2})/i);
  });
});

describe('firstDisallowedCharacter', () => {
  it('finds the first disallowed character, or -1', () => {
    expect(firstDisallowedCharacter('limpo\tcom\r\nquebras')).toBe(-1);
    expect(firstDisallowedCharacter('ab\u0000c')).toBe(2);
    expect(firstDisallowedCharacter('😀\ud800')).toBe(2);
    expect(describeCharacter('ab\u0000c', 2)).toBe('U+0000');
  });
});
