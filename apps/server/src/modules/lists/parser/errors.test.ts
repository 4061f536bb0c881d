import { FILE_LIMITS } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { expectErrorTextsInEveryLanguage, WEB_LANGUAGES, webLocale } from '../../../../test/locales.test-support.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { FILE_ERROR_CODES } from './errors.ts';

describe('file errors', () => {
  it('every code has its text in the web app’s three languages', () => {
    expectErrorTextsInEveryLanguage(FILE_ERROR_CODES);
  });

  it('limit errors name the limit and its maximum, in the message and in details', () => {
    expect(new AppError('XLSX_TOO_LARGE', { limit: 'columns', max: 16_384 })).toMatchObject({
      status: 400,
      code: 'XLSX_TOO_LARGE',
      message:
        'A planilha XLSX tem mais de 16.384 colunas: é mais do que conseguimos ler com segurança. Salve como CSV e envie de novo.',
      details: { limit: 'columns', max: 16_384 },
    });
    expect(new AppError('XLSX_TOO_LARGE', { limit: 'sharedStringBytes', max: 128 * 1024 * 1024 }).message).toContain(
      '128 MB de textos',
    );
    expect(new AppError('IMPORT_TOO_LARGE', { limit: 'heapMb', max: 256 }).message).toBe(
      'A importação deste arquivo precisa de mais de 256 MB de memória para terminar. Divida a lista em arquivos menores e envie de novo.',
    );
    expect(new AppError('FILE_TOO_LARGE').status).toBe(413);
  });

  it('every limit has its words in the web app’s three languages', () => {
    for (const lng of WEB_LANGUAGES) {
      const { lists } = webLocale(lng);
      for (const limit of FILE_LIMITS)
        expect(lists.limits[limit], `${lng}: lists.limits.${limit}`).toMatch(/\{\{max\}\}/);
      for (const code of ['XLSX_TOO_LARGE_LIMIT', 'IMPORT_TOO_LARGE_LIMIT']) {
        expect(lists.errors[code], `${lng}: lists.errors.${code}`).toMatch(/\{\{what\}\}/);
      }
    }
  });
});
