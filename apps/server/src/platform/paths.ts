import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root: the nearest folder above this module holding `apps/server/drizzle`. Found
 * by looking rather than counted in `../`, so the same code works from its source
 * (apps/server/src/platform, run by tsx and the tests) and bundled (apps/server/dist, `npm start`).
 */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'apps/server/drizzle'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`Ecoa's repository root not found above ${from}`);
  }
}

export const REPO_ROOT = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));
export const WEB_ROOT = path.join(REPO_ROOT, 'apps/web/dist');
export const WEB_LOCALES_DIR = path.join(REPO_ROOT, 'apps/web/public/locales');
