// Compiles the server for `npm start` / `npm run worker`: esbuild bundles each entry point (and
// the worker threads it starts) into apps/server/dist/*.mjs, plain JavaScript for plain `node`.
// Packages from node_modules stay imports (node resolves them); the workspace's own TypeScript
// (@ecoa/shared) is bundled in. With `--if-needed`, nothing is done when a hash of the sources
// matches the last build's, so a warm start costs a few milliseconds.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const serverSrc = path.join(root, 'apps/server/src');
const outdir = path.join(root, 'apps/server/dist');
const hashFile = path.join(outdir, '.sources-hash');

/** What a build depends on: the server's and the shared package's sources, and this script. */
const SOURCES = ['apps/server/src', 'packages/shared/src', 'apps/server/package.json', 'scripts/build-server.mjs'];

/** Each process the server ships, and the worker threads they start (named as `new URL(...)` asks). */
const ENTRIES = {
  main: 'main.ts',
  worker: 'worker.ts',
  migrate: 'migrate.ts',
  simulators: 'simulators.ts',
  'cnpj-import': 'cnpj-import.ts',
  'cnpj-sample': 'cnpj-sample.ts',
  'import-worker.boot': 'modules/lists/import-worker.ts',
  'sample-worker.boot': 'modules/lists/parser/sample-worker.ts',
};
/** Plain JavaScript files a process loads by path, copied as they are. */
const COPIED = ['platform/db/pglite-initdb.child.mjs'];

function filesUnder(p) {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [p];
  return fs
    .readdirSync(p)
    .sort()
    .flatMap((name) => filesUnder(path.join(p, name)));
}

function sourcesHash() {
  const hash = crypto.createHash('sha256');
  for (const file of SOURCES.flatMap((s) => filesUnder(path.join(root, s)))) {
    if (/\.test\.tsx?$/.test(file)) continue;
    hash.update(path.relative(root, file));
    hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex');
}

/** Bare imports stay imports, except the workspace's own packages (TypeScript sources). */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@ecoa/') || args.kind === 'entry-point' ? undefined : { path: args.path, external: true },
    );
  },
};

export async function buildServer({ ifNeeded = false } = {}) {
  const existing = Object.entries(ENTRIES).filter(([, file]) => fs.existsSync(path.join(serverSrc, file)));
  const hash = sourcesHash();
  if (ifNeeded && fs.existsSync(hashFile) && fs.readFileSync(hashFile, 'utf8') === hash) {
    console.log('server is up to date');
    return;
  }
  const started = performance.now();
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(existing.map(([name, file]) => [name, path.join(serverSrc, file)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    // One self-contained file per entry (no shared chunks): worker threads are found next to the
    // file that starts them (`new URL('./x.boot.mjs', import.meta.url)`), which must be the entry.
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: 'linked',
    plugins: [externalPackages],
    logLevel: 'warning',
    // Bundled CommonJS helpers may call require(): give ES modules one.
    banner: {
      js: "import { createRequire as __ecoaRequire } from 'node:module'; const require = __ecoaRequire(import.meta.url);",
    },
  });
  for (const file of COPIED) fs.copyFileSync(path.join(serverSrc, file), path.join(outdir, path.basename(file)));
  fs.writeFileSync(hashFile, hash);
  console.log(`server built in ${Math.round(performance.now() - started)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildServer({ ifNeeded: process.argv.includes('--if-needed') });
}
