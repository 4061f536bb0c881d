import fs from 'node:fs';
import path from 'node:path';
import { API_ERROR_CODES, CAMPAIGN_PROBLEMS, ERROR_FAMILIES, ERRORS, MESSAGES } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { AppError, validationFailed } from './app-error.ts';

/**
 * The catalogue is the only way to raise an error: the type refuses an unknown code at a literal;
 * this scan catches what the type cannot see (a code chosen at run time, a code spelled in a
 * template, an answer built by hand, a helper that takes a code and a message).
 */
const SRC = path.resolve(import.meta.dirname, '../..');
/** The carriers' simulators answer carriers, not the web app (their JSON is the carrier's own). */
const OUTSIDE = /(\.test|test-support|test-app)\.ts$|\/simulator\//;

function sources(dir: string, out: [string, string][] = []): [string, string][] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sources(full, out);
    else if (entry.name.endsWith('.ts') && !OUTSIDE.test(full))
      out.push([path.relative(SRC, full), fs.readFileSync(full, 'utf8')]);
  }
  return out;
}

const FILES = sources(SRC);
const CODE = /^[A-Z][A-Z0-9_]*$/;

/** Each `new AppError(` whose code is not a string literal, with the codes it may hold. */
const CHOSEN_AT_RUN_TIME: Record<string, string[]> = {
  'modules/audios/audios.service.ts': [
    'AUDIO_TYPE_NOT_ALLOWED',
    'AUDIO_INVALID',
    'AUDIO_LINK_EXPIRED',
    'AUDIO_LINK_INVALID',
  ],
  'modules/lists/parser/errors.ts': ['XLSX_TOO_LARGE', 'IMPORT_TOO_LARGE'],
  // The sending API's per-recipient refusals (ApiRejectionCode): a batch lists them, a single send raises its one.
  'modules/campaigns/campaigns.api-sends.ts': [
    'INVALID_PHONE',
    'MOBILE_REQUIRED',
    'DUPLICATE_RECIPIENT',
    'RECIPIENT_OPTED_OUT',
  ],
  'modules/messages-api/messages-api.service.ts': [
    'INVALID_PHONE',
    'MOBILE_REQUIRED',
    'DUPLICATE_RECIPIENT',
    'RECIPIENT_OPTED_OUT',
  ],
};

describe('the error catalogue (ERRORS in @ecoa/shared)', () => {
  it('finds the server sources', () => {
    expect(FILES.length).toBeGreaterThan(200);
  });

  it('every code raised with a literal is catalogued', () => {
    const unknown: string[] = [];
    for (const [file, text] of FILES)
      for (const [, code] of text.matchAll(/new AppError\(\s*'([^']*)'/g))
        if (!Object.hasOwn(ERRORS, code!)) unknown.push(`${file}: ${code}`);
    expect(unknown).toEqual([]);
  });

  it('a code chosen at run time is one of the catalogued codes listed for its file', () => {
    const dynamic: string[] = [];
    for (const [file, text] of FILES)
      for (const m of text.matchAll(/new AppError\(\s*([^'\s)][^,)]*)/g)) {
        if (file === 'platform/errors/app-error.ts') continue; // fromWire: checked by isErrorCode
        if (!CHOSEN_AT_RUN_TIME[file]) dynamic.push(`${file}: ${m[1]}`);
        for (const [, literal] of m[1]!.matchAll(/'([A-Z_]+)'/g))
          if (!CHOSEN_AT_RUN_TIME[file]?.includes(literal!)) dynamic.push(`${file}: ${literal}`);
      }
    expect(dynamic).toEqual([]);
    for (const codes of Object.values(CHOSEN_AT_RUN_TIME))
      for (const code of codes) expect(Object.hasOwn(ERRORS, code), code).toBe(true);
  });

  it('no helper raises an error from a code and a message of its own', () => {
    const helpers: string[] = [];
    for (const [file, text] of FILES) {
      for (const m of text.matchAll(/\b(badRequest|notFound|conflict|forbidden|unauthorized|tooManyRequests)\(/g))
        helpers.push(`${file}: ${m[1]}(`);
      // A function taking a code and building an error from it is a second way to raise one.
      for (const m of text.matchAll(/(?:function\s+(\w+)|const\s+(\w+)\s*=\s*)\(\s*code\s*:[\s\S]{0,300}/g))
        if (/\bAppError\b/.test(m[0])) helpers.push(`${file}: ${m[1] ?? m[2]}(code, …)`);
    }
    expect(helpers).toEqual([]);
  });

  it('codes spelled in a template belong to a documented family (carriers’ reasons)', () => {
    const prefixes: readonly string[] = ERROR_FAMILIES.carrierReasons.prefixes;
    const stray: string[] = [];
    // (A template nested in a family's own, `RCS_${named ?? `HTTP_${status}`}`, is that family's.)
    for (const [file, text] of FILES)
      for (const [, prefix] of text.matchAll(/(?<!\?\? )`((?:[A-Z][A-Z0-9]*_)+)\$\{/g))
        if (!prefixes.some((p) => prefix!.startsWith(p))) stray.push(`${file}: ${prefix}`);
    expect(stray).toEqual([]);
  });

  it('a stored or listed `{code, message}` names a catalogued code or a campaign problem', () => {
    const unknown: string[] = [];
    for (const [file, text] of FILES)
      for (const [, code] of text.matchAll(/\bcode:\s*'([A-Z][A-Z0-9_]*)',\s*message\b/g))
        if (!Object.hasOwn(ERRORS, code!) && !Object.hasOwn(CAMPAIGN_PROBLEMS, code!)) unknown.push(`${file}: ${code}`);
    expect(unknown).toEqual([]);
  });

  it('no `{message, code}` body is built by hand: a refusal is thrown and the one error handler answers it', () => {
    const byHand: string[] = [];
    for (const [file, text] of FILES)
      if (file !== 'platform/http/error-handler.ts' && /JSON\.stringify\(\s*\{\s*message\b[^}]*\bcode\b/.test(text))
        byHand.push(file);
    expect(byHand).toEqual([]);
  });

  it("the carriers' webhook refusals are entries for the carrier (never the web app's), with their status", () => {
    const statuses = {
      WEBHOOK_NOT_READY: 503,
      WEBHOOK_NOT_STORED: 503,
      WEBHOOK_VERIFY_TOKEN_INVALID: 403,
      WEBHOOK_CHALLENGE_INVALID: 400,
      WEBHOOK_CLIENT_TOKEN_INVALID: 403,
      WEBHOOK_BODY_TOO_LARGE: 413,
      WEBHOOK_SIGNATURE_INVALID: 401,
      WEBHOOK_BODY_INVALID: 400,
      VOICE_CALLBACK_TOO_LARGE: 413,
      VOICE_SIGNATURE_INVALID: 401,
      VOICE_CALLBACK_INVALID: 400,
      VOICE_SCRIPT_INVALID: 400,
      VOICE_EVENT_NOT_RECORDED: 500,
    } as const;
    const carrier = Object.entries(ERRORS).filter(([, entry]) => 'audience' in entry && entry.audience === 'carrier');
    expect(Object.fromEntries(carrier.map(([code, entry]) => [code, entry.status]))).toEqual(statuses);
    for (const code of Object.keys(statuses)) expect(API_ERROR_CODES).not.toContain(code);
    expect(new AppError('WEBHOOK_BODY_INVALID', undefined, { why: 'noData' })).toMatchObject({
      code: 'WEBHOOK_BODY_INVALID',
      status: 400,
      message: 'no message.data in the envelope',
    });
  });

  it('every entry has a status, a code-shaped name and a message that renders', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(code).toMatch(CODE);
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      if (typeof entry.message === 'string') expect(entry.message.trim(), code).not.toBe('');
    }
  });

  it('takes the status and message from the entry, and a campaign problem answers with its own code', () => {
    expect(new AppError('USER_NOT_FOUND')).toMatchObject({
      code: 'USER_NOT_FOUND',
      status: 404,
      message: 'Usuário não encontrado.',
    });
    expect(new AppError('PERIOD_TOO_LONG', { maxDays: 92 })).toMatchObject({
      status: 400,
      message: 'O período pode ter no máximo 92 dias.',
      details: { maxDays: 92 },
    });
    const problem = new AppError('CAMPAIGN_PROBLEM', undefined, { problem: 'AUDIO_NOT_FOUND' });
    expect(problem).toMatchObject({ code: 'AUDIO_NOT_FOUND', status: 400, message: CAMPAIGN_PROBLEMS.AUDIO_NOT_FOUND });
    expect(AppError.fromWire(problem.toWire())).toMatchObject({ code: 'AUDIO_NOT_FOUND', status: 400 });
    expect(() => AppError.fromWire({ key: 'NOT_A_CODE' })).toThrow(/not a catalogued error/);
  });

  it("names a schema's shared message by its key, and answers any other in its own words", () => {
    expect(validationFailed(MESSAGES.cnpjInvalid)).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
      message: MESSAGES.cnpjInvalid,
      details: { messageKey: 'cnpjInvalid' },
    });
    const library = validationFailed('Invalid input');
    expect([library.message, library.details]).toEqual(['Invalid input', undefined]);
    expect(validationFailed(undefined).message).toBe('Requisição inválida.');
  });
});
