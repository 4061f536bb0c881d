import { describeCharacter, firstDisallowedCharacter } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.ts';

/**
 * The path and character of the first string in `value` (keys included) with a disallowed
 * character, if any. Iterative: a deeply nested body cannot overflow the stack.
 */
export function findDisallowedText(value: unknown, path = ''): { field: string; character: string } | undefined {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [item, at] = stack.pop()!;
    if (typeof item === 'string') {
      const i = firstDisallowedCharacter(item);
      if (i >= 0) return { field: at, character: describeCharacter(item, i) };
      continue;
    }
    if (item === null || typeof item !== 'object' || ArrayBuffer.isView(item)) continue;
    for (const [key, child] of Object.entries(item)) {
      const i = firstDisallowedCharacter(key);
      if (i >= 0) return { field: at, character: describeCharacter(key, i) };
      stack.push([child, at ? `${at}.${key}` : key]);
    }
  }
  return undefined;
}

/**
 * Text typed into the API (JSON bodies, query strings, route parameters) never carries NUL,
 * control characters or lone surrogates: a form cannot type them. They are refused here, once
 * for every route, with a clear reason (400 TEXT_INVALID_CHARACTERS naming the field), before a
 * route sees them — PostgreSQL would refuse NUL anyway, as a bare 500. Text read from files is
 * cleaned instead (`sanitizeText`), since a spreadsheet with a stray NUL is still a good list.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const found =
      findDisallowedText(request.params, 'params') ??
      findDisallowedText(request.query, 'query') ??
      findDisallowedText(request.body);
    if (found) throw new AppError('TEXT_INVALID_CHARACTERS', found);
  });
}
