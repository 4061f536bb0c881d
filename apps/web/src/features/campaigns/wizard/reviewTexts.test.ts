import { createInstance, type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import cn from '../../../../public/locales/cn.json';
import en from '../../../../public/locales/en.json';
import pt from '../../../../public/locales/pt.json';
import { partsEachText, withoutAccentsText } from './reviewTexts';

/** The app's own texts, through a real i18next (plurals included). */
const translators: Record<string, TFunction> = {};
beforeAll(async () => {
  for (const [lng, translation] of Object.entries({ pt, en, cn })) {
    const i18n = createInstance();
    await i18n.init({ lng, resources: { [lng]: { translation } }, interpolation: { escapeValue: false } });
    translators[lng] = i18n.t;
  }
});
const br = new Intl.NumberFormat('pt-BR');

describe('the review’s parts texts', () => {
  it('says "2 partes" when every message takes the same, the range otherwise, nothing for 1 part', () => {
    const t = translators.pt!;
    expect(partsEachText(t, { min: 2, max: 2 })).toBe('Cada mensagem terá 2 partes.');
    expect(partsEachText(t, { min: 1, max: 3 })).toBe('Cada mensagem terá de 1 a 3 partes, conforme as variáveis.');
    expect(partsEachText(t, { min: 1, max: 1 })).toBeNull();
    expect(partsEachText(translators.en!, { min: 2, max: 2 })).toBe('Each message takes 2 parts.');
    expect(partsEachText(translators.cn!, { min: 3, max: 3 })).toBe('每条消息占 3 个分段。');
  });

  it('says what removing accents takes and saves, with the thousands separated', () => {
    const t = translators.pt!;
    const estimate = { parts: 800, withoutAccents: { parts: 400, min: 1, max: 1 } };
    expect(withoutAccentsText(t, estimate, br)).toBe('Sem acentos: 1 parte — economiza 400 créditos.');
    expect(withoutAccentsText(t, { parts: 3000, withoutAccents: { parts: 1500, min: 1, max: 2 } }, br)).toBe(
      'Sem acentos: de 1 a 2 partes — economiza 1.500 créditos.',
    );
    expect(withoutAccentsText(t, { parts: 2, withoutAccents: { parts: 1, min: 1, max: 1 } }, br)).toBe(
      'Sem acentos: 1 parte — economiza 1 crédito.',
    );
    expect(withoutAccentsText(translators.en!, estimate, new Intl.NumberFormat('en-US'))).toBe(
      'Without accents: 1 part — saves 400 credits.',
    );
    expect(withoutAccentsText(t, { parts: 4, withoutAccents: null }, br)).toBeNull();
  });
});
