import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Repository root (three levels above apps/server/src/platform). */
export const REPO_ROOT = path.resolve(here, '../../../..');
export const WEB_ROOT = path.join(REPO_ROOT, 'apps/web/dist');
export const WEB_LOCALES_DIR = path.join(REPO_ROOT, 'apps/web/public/locales');
