// `npm start` builds the web app only when a source is newer than the last build,
// so a warm start costs nothing and a fresh clone still gets a build.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'apps/web/dist/index.html');
const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/shared/src',
  'package-lock.json',
];

function newestMtime(p) {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((name) => newestMtime(path.join(p, name))));
}

const builtAt = fs.statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changedAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (builtAt >= changedAt) {
  console.log('web app is up to date');
} else {
  console.log('building the web app…');
  execSync('npm run build --workspace @ecoa/web', { cwd: root, stdio: 'inherit' });
}
