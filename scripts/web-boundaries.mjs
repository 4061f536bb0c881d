/**
 * The web app's boundaries, checked by `npm run boundaries` beside dependency-cruiser (whose swc
 * parser reads no JSX, so it cannot read the web's .tsx files):
 * - a feature uses another only through its public surface, `features/<feature>/index.ts`, or its
 *   query keys, `features/<feature>/queryKeys.ts` (data, never code: importing them cannot pull a
 *   page into another chunk or close a loop); tests render a screen from its parts and are exempt;
 *   `app/` is exempt too: the router lazy-loads each page from its own file, which splits the bundle;
 * - `platform/` and `ui/` import no feature (every feature stands on them);
 * - no file is on an import cycle.
 * Every import counts, `import type` and `import()` included, as dependency-cruiser counts them.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseFileSync } from '@swc/core';

const root = resolve(import.meta.dirname, '..');
const roots = ['apps/web/src', 'apps/web/test'];
const isTest = (file) => /\.test\.tsx?$/.test(file) || file.startsWith('apps/web/test/');

function sourcesUnder(dir) {
  const out = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every module specifier a file names: imports, re-exports and dynamic imports. */
function specifiers(file) {
  const ast = parseFileSync(join(root, file), {
    syntax: 'typescript',
    tsx: file.endsWith('.tsx'),
    dynamicImport: true,
  });
  const found = [];
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    if (
      (node.type === 'ImportDeclaration' ||
        node.type === 'ExportAllDeclaration' ||
        node.type === 'ExportNamedDeclaration') &&
      node.source
    )
      found.push(node.source.value);
    if (node.type === 'CallExpression' && node.callee?.type === 'Import') {
      const arg = node.arguments?.[0]?.expression;
      if (arg?.type === 'StringLiteral') found.push(arg.value);
    }
    for (const key of Object.keys(node)) if (key !== 'span') visit(node[key]);
  };
  visit(ast.body);
  return found;
}

function resolveRelative(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = join(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return candidate;
  return null;
}

const files = roots.flatMap(sourcesUnder);
const graph = new Map(
  files.map((f) => [
    f,
    specifiers(f)
      .map((s) => resolveRelative(f, s))
      .filter(Boolean),
  ]),
);

const featureOf = (file) => /^apps\/web\/src\/features\/([^/]+)\//.exec(file)?.[1];
const isSurface = (file) => /^apps\/web\/src\/features\/[^/]+\/(index|queryKeys)\.tsx?$/.test(file);
const violations = [];
for (const [from, targets] of graph) {
  for (const to of targets) {
    const [a, b] = [featureOf(from), featureOf(to)];
    if (a && b && a !== b && !isTest(from) && !isSurface(to))
      violations.push(`web-feature-through-index: ${from} → ${to}`);
    if (/^apps\/web\/src\/(platform|ui)\//.test(from) && b)
      violations.push(`web-platform-not-features: ${from} → ${to}`);
  }
}

// Cycles: a depth-first walk; a file met again while still on the path closes a loop.
const state = new Map();
const path = [];
function walk(file) {
  state.set(file, 'open');
  path.push(file);
  for (const next of graph.get(file) ?? []) {
    if (state.get(next) === 'open')
      violations.push(`no-cycles: ${[...path.slice(path.indexOf(next)), next].join(' → ')}`);
    else if (!state.has(next)) walk(next);
  }
  path.pop();
  state.set(file, 'done');
}
for (const file of files) if (!state.has(file)) walk(file);

if (violations.length > 0) {
  console.error(violations.map((v) => `  error ${v}`).join('\n'));
  console.error(`\nx ${violations.length} web boundary violations (${files.length} files read)`);
  process.exit(1);
}
console.log(`✔ no web boundary violations (${files.length} files read)`);
