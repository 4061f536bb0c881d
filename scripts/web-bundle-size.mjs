// The web app's JavaScript per screen: which files the browser loads and their size (raw and
// gzip), from a production build's Vite manifest. Writes bench/results/web-bundle.json.
//
//   node scripts/web-bundle-size.mjs                      # builds into a temporary directory
//   node scripts/web-bundle-size.mjs --dist <dir> --as baseline   # measures an existing build
//                                                         # (made with `vite build --manifest`)
//
// The result keeps the `baseline` figures already in the file and replaces `current` (or
// whatever `--as` names). A screen loads its entry's static imports, then, once signed in, the
// signed-in frame's chunk and the page's chunk with their static imports; CSS is listed apart.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'apps/web');
const target = path.join(root, 'bench/results/web-bundle.json');

const SHELL = 'src/app/SignedInRoutes.tsx';
/** Screen → the lazily loaded modules it needs besides the entry. */
const SCREENS = {
  'sign-in (signed out, any URL)': [],
  'sign-up step': ['src/features/auth/SignupStep.tsx'],
  '/campanhas (signed in; every placeholder page)': [SHELL],
  '/listas': [SHELL, 'src/features/lists/ListsPage.tsx'],
  '/audios': [SHELL, 'src/features/audios/AudiosPage.tsx'],
  '/shopping': [SHELL, 'src/features/credits/ShoppingPage.tsx'],
  '/configuracoes': [SHELL, 'src/features/settings/SettingsPage.tsx'],
  '/usuarios (administrators)': [SHELL, 'src/features/admin-users/UsersPage.tsx'],
};

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

let dist = option('--dist');
const label = option('--as') ?? 'current';
if (!dist) {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-web-bundle-'));
  execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--manifest'], {
    cwd: webDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);

function staticClosure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    staticClosure(manifest[key].imports ?? [], seen);
  }
  return seen;
}

const sizeOf = (file) => {
  const bytes = fs.readFileSync(path.join(dist, file));
  return { raw: bytes.length, gzip: zlib.gzipSync(bytes).length };
};
const kb = (n) => Math.round(n / 102.4) / 10;

function measure(lazyKeys) {
  // A lazy module missing from the manifest is in the entry (an unsplit build).
  const chunks = staticClosure([entryKey, ...lazyKeys]);
  const js = [...new Set([...chunks].map((k) => manifest[k].file))];
  const css = [...new Set([...chunks].flatMap((k) => manifest[k].css ?? []))];
  const sized = (files) => files.map((file) => ({ file, ...sizeOf(file) }));
  const total = (list, key) => kb(list.reduce((sum, f) => sum + f[key], 0));
  const jsFiles = sized(js);
  const cssFiles = sized(css);
  return {
    jsFiles: jsFiles.length,
    jsRawKB: total(jsFiles, 'raw'),
    jsGzipKB: total(jsFiles, 'gzip'),
    cssGzipKB: total(cssFiles, 'gzip'),
    files: [...jsFiles, ...cssFiles].map((f) => `${f.file} (${kb(f.raw)} KB, ${kb(f.gzip)} KB gzip)`),
  };
}

const figures = {
  at: new Date().toISOString(),
  jsChunksInBuild: Object.values(manifest).filter((c) => c.file.endsWith('.js')).length,
  screens: Object.fromEntries(Object.entries(SCREENS).map(([screen, keys]) => [screen, measure(keys)])),
};

const previous = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, 'utf8')) : {};
const out = {
  bench: 'web-bundle',
  note: 'KB = 1024 bytes; gzip = node zlib default level; JS the browser loads per screen (entry static imports, plus the lazy chunks the screen renders)',
  ...previous,
  [label]: figures,
};
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
for (const [screen, f] of Object.entries(figures.screens)) {
  console.log(`${screen}: ${f.jsFiles} JS files, ${f.jsRawKB} KB raw, ${f.jsGzipKB} KB gzip`);
}
console.log(`→ ${path.relative(process.cwd(), target)}`);
