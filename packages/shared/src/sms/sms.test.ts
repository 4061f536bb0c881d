import { describe, expect, it } from 'vitest';
import { removeAccents } from './accents.ts';
import { analyzeSms } from './analyze.ts';
import { decodeGsm7, decodeUcs2, encodeGsm7, encodeUcs2, gsm7Septets, isGsm7Text } from './gsm7.ts';

describe('the GSM 03.38 alphabet', () => {
  it('has the accented letters of its basic table and not the other Portuguese ones', () => {
    expect(isGsm7Text('é É à ä ö ü ñ Ñ Ü Ç è ù ì ò @ £ ¥ § ¿ ¡ Δ')).toBe(true);
    for (const c of ['á', 'ã', 'â', 'ç', 'ê', 'í', 'ó', 'ô', 'õ', 'ú', 'À', 'Ã', 'Õ', 'Ê']) {
      expect(gsm7Septets(c), c).toBe(0);
    }
  });

  it('counts the extension characters double and encodes them as ESC + code', () => {
    for (const c of ['€', '[', ']', '{', '}', '~', '^', '\\', '|', '\f']) expect(gsm7Septets(c), c).toBe(2);
    expect([...encodeGsm7('€[]{}~^\\|')]).toEqual([
      0x1b, 0x65, 0x1b, 0x3c, 0x1b, 0x3e, 0x1b, 0x28, 0x1b, 0x29, 0x1b, 0x3d, 0x1b, 0x14, 0x1b, 0x2f, 0x1b, 0x40,
    ]);
  });

  it('encodes unpacked septets (one per octet) and decodes them back', () => {
    const text = 'Olá? Não: é @ £5 às 10h [promoção] €';
    expect(() => encodeGsm7(text)).toThrow(RangeError);
    const gsm = 'Ola! É @ £5 as 10h [promocao] € ü_ñ\nfim';
    const bytes = encodeGsm7(gsm);
    expect(bytes[0]).toBe(0x4f); // O
    expect([...encodeGsm7('@£$')]).toEqual([0x00, 0x01, 0x02]);
    expect(decodeGsm7(bytes)).toBe(gsm);
  });

  it('decodes what an SMSC may send: the top bit set, an unknown escape, a trailing ESC', () => {
    expect(decodeGsm7(Uint8Array.from([0x41 | 0x80, 0x42]))).toBe('AB');
    expect(decodeGsm7(Uint8Array.from([0x1b, 0x41]))).toBe('A');
    expect(decodeGsm7(Uint8Array.from([0x41, 0x1b]))).toBe('A');
  });

  it('encodes UCS-2 big-endian, an emoji as its surrogate pair', () => {
    expect([...encodeUcs2('Aç')]).toEqual([0x00, 0x41, 0x00, 0xe7]);
    expect([...encodeUcs2('😀')]).toEqual([0xd8, 0x3d, 0xde, 0x00]);
    expect(decodeUcs2(encodeUcs2('Promoção 😀 até amanhã'))).toBe('Promoção 😀 até amanhã');
    expect(decodeUcs2(Uint8Array.from([0x00, 0x41, 0x00]))).toBe('A');
  });
});

describe('analyzeSms', () => {
  it('keeps a plain Portuguese text in GSM-7 within 160 characters, one part', () => {
    const text =
      'Ola Maria, sua fatura de R$ 89,90 vence amanha. Pague pelo app e evite juros. Duvidas? Ligue 4004-0000.';
    const a = analyzeSms(text);
    expect(a).toMatchObject({ encoding: 'gsm7', characters: text.length, parts: [text], perPart: 160 });
    expect(a.remainingInPart).toBe(160 - text.length);
  });

  it('switches to UCS-2 for one accent GSM-7 lacks, and says which', () => {
    const a = analyzeSms('Promoção válida até sábado!');
    expect(a.encoding).toBe('ucs2');
    expect(a.perPart).toBe(70);
    expect(a.nonGsmCharacters).toEqual(['ç', 'ã', 'á']);
  });

  it('cuts exactly at 160 / 161 GSM-7 characters', () => {
    expect(analyzeSms('a'.repeat(160)).parts).toHaveLength(1);
    const a = analyzeSms('a'.repeat(161));
    expect(a.parts.map((p) => p.length)).toEqual([153, 8]);
    expect(a.perPart).toBe(153);
    expect(a.remainingInPart).toBe(145);
  });

  it('counts an extension character double: 80 euros fill one part exactly', () => {
    expect(analyzeSms('€'.repeat(80))).toMatchObject({ characters: 160, parts: ['€'.repeat(80)] });
    expect(analyzeSms('€'.repeat(81)).parts).toHaveLength(2);
  });

  it('never splits an ESC pair at a part boundary', () => {
    // 152 septets, then "[" (2 septets) would straddle 153: it moves to the next part.
    const text = `${'x'.repeat(152)}[promo] ok`;
    const a = analyzeSms(text);
    expect(a.parts).toEqual(['x'.repeat(152), '[promo] ok']);
    expect(a.characters).toBe(152 + 2 + 5 + 2 + 3);
    expect(a.parts.join('')).toBe(text);
  });

  it('cuts a long UCS-2 text into 67-unit parts: 3 parts, joined back exactly', () => {
    const text =
      'Atenção: sua promoção exclusiva está disponível! Aproveite descontos de até 50% em eletrônicos, ' +
      'calçados e acessórios até domingo. Não perca: condições válidas só para você. SAIR p/ sair';
    const a = analyzeSms(text);
    expect(a.encoding).toBe('ucs2');
    expect(a.characters).toBe(text.length);
    expect(text.length).toBeGreaterThan(134);
    expect(text.length).toBeLessThanOrEqual(201);
    expect(a.parts).toHaveLength(3);
    expect(a.parts[0]).toHaveLength(67);
    expect(a.parts[1]).toHaveLength(67);
    expect(a.parts.join('')).toBe(text);
  });

  it('never splits an emoji (a surrogate pair) at a part boundary', () => {
    const text = `${'á'.repeat(66)}😀${'b'.repeat(10)}`;
    const a = analyzeSms(text);
    expect(a.characters).toBe(78);
    expect(a.parts).toEqual(['á'.repeat(66), `😀${'b'.repeat(10)}`]);
  });

  it('counts an empty text as one empty GSM-7 part', () => {
    expect(analyzeSms('')).toMatchObject({ encoding: 'gsm7', characters: 0, parts: [''], perPart: 160 });
  });
});

describe('removeAccents', () => {
  it('brings Portuguese text to GSM-7, keeping the accents GSM-7 has', () => {
    const out = removeAccents('Olá João! Promoção válida até sábado: você ganha 10% no café. É hoje, às 18h.');
    expect(out).toBe('Ola Joao! Promocao valida até sabado: voce ganha 10% no café. É hoje, às 18h.');
    expect(analyzeSms(out).encoding).toBe('gsm7');
  });

  it('handles capitals and word-processor typography', () => {
    expect(removeAccents('ATENÇÃO — ÚLTIMOS DIAS… “Oferta” nº 1ª')).toBe('ATENÇAO - ULTIMOS DIAS... "Oferta" no 1a');
    expect(removeAccents('ÀÁÂÃ ÊÈ ÍÌ ÓÒÔÕ ÚÙ ç')).toBe('AAAA EE II OOOO UU c');
  });

  it('keeps what it cannot bring to GSM-7 (emoji, other scripts): the text stays UCS-2', () => {
    const out = removeAccents('Olá 😀 你好');
    expect(out).toBe('Ola 😀 你好');
    expect(analyzeSms(out).nonGsmCharacters).toEqual(['😀', '你', '好']);
  });
});
