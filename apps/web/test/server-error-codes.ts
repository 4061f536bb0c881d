/**
 * Every error code the server can answer the web app with, read from its source (until the
 * server keeps one catalogue, issue 22): codes given to `AppError` and its factories (also a
 * module's own helpers taking a `code` first), `code: '…'` answers (the error handler, a
 * campaign's problems, an import's failure) and the keys of `*_ERRORS` catalogues
 * (`FILE_ERRORS`, `AUDIO_ERRORS`), so codes built from constants are found too.
 * Left out: carriers' simulators and webhooks (they answer carriers), the operations CLIs and the
 * phone normaliser's reasons (not errors).
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const SOURCES = ['apps/server/src', 'packages/shared/src'];
const SKIPPED_DIRS = new Set(['simulator', 'providers', 'ops', 'fixtures', 'phones', 'node_modules']);
const CODE = '([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})';

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) sourceFiles(full, out);
    } else if (/\.ts$/.test(entry.name) && !/(\.test|\.d|test-support|simulator)\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** code → the files that send it (relative to the repository). */
export function serverErrorCodes(): Map<string, string[]> {
  const files = SOURCES.flatMap((dir) => sourceFiles(path.join(ROOT, dir))).map(
    (file) => [path.relative(ROOT, file), fs.readFileSync(file, 'utf8')] as const,
  );
  const factories = new Set(['AppError', 'badRequest', 'notFound', 'conflict']);
  for (const [, text] of files)
    for (const m of text.matchAll(/(?:const|function)\s+(\w+)\s*=?\s*(?:async\s*)?\(\s*code\b/g)) factories.add(m[1]!);

  const codes = new Map<string, Set<string>>();
  const add = (code: string, file: string) => codes.set(code, (codes.get(code) ?? new Set()).add(file));
  for (const [file, text] of files) {
    for (const m of text.matchAll(new RegExp(`\\b(\\w+)\\(\\s*'${CODE}'`, 'g')))
      if (factories.has(m[1]!)) add(m[2]!, file);
    for (const m of text.matchAll(new RegExp(`\\bcode:\\s*'${CODE}'`, 'g'))) add(m[1]!, file);
    // A code chosen in an expression (`const code = … : 'BAD_REQUEST'`, the error handler's default).
    for (const m of text.matchAll(new RegExp(`\\b(?:const|let)\\s+code\\s*=[^;]*?'${CODE}'\\s*;`, 'g')))
      add(m[1]!, file);
    for (const m of text.matchAll(/\bconst\s+\w*_ERRORS\b[^=]*=\s*\{([\s\S]*?)\n\}/g))
      for (const key of m[1]!.matchAll(new RegExp(`^\\s{2}${CODE}:`, 'gm'))) add(key[1]!, file);
  }
  return new Map([...codes].sort(([a], [b]) => a.localeCompare(b)).map(([code, where]) => [code, [...where]]));
}
