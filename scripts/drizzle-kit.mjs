#!/usr/bin/env node
/**
 * `npm run db:generate` (from apps/server): runs drizzle-kit with the server's drizzle-orm.
 *
 * npm hoists drizzle-kit to the root node_modules but keeps drizzle-orm in
 * apps/server/node_modules, and drizzle-kit loads drizzle-orm from its own folder, so a plain
 * `drizzle-kit generate` stops with "Please install latest version of drizzle-orm". Here both
 * the `require()` and the `import()` drizzle-kit makes for drizzle-orm resolve from apps/server:
 * one copy, the one the schema files use. Arguments go to drizzle-kit unchanged.
 */
import { createRequire, Module, register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server');
const serverUrl = pathToFileURL(path.join(serverDir, 'package.json')).href;

// require(): NODE_PATH is the fallback after drizzle-kit's own node_modules chain.
process.env.NODE_PATH = [path.join(serverDir, 'node_modules'), process.env.NODE_PATH]
  .filter(Boolean)
  .join(path.delimiter);
Module._initPaths();

// import(): resolve drizzle-orm as if apps/server imported it.
const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
    return next(specifier, { ...context, parentURL: ${JSON.stringify(serverUrl)} });
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

process.chdir(serverDir);
const require = createRequire(serverUrl);
process.argv = [process.argv[0], 'drizzle-kit', ...process.argv.slice(2)];
// bin.cjs is not in drizzle-kit's exports map: find it beside the package's main file.
require(path.join(path.dirname(require.resolve('drizzle-kit')), 'bin.cjs'));
