/**
 * One idiom for a route's guard (issue 22): a routes file hands `guard.requireUser`,
 * `guard.requireAdmin` or `guard.requireScope(…)` to `routeOptions` (platform/http/route-options.ts),
 * which sets it as the route's `onRequest` hook beside its tags, security and group errors; no
 * route writes its own `onRequest`. Which routes are guarded at all is `access.guards.test.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const modules = path.resolve(import.meta.dirname, '../src/modules');

function routesFiles(): string[] {
  return (fs.readdirSync(modules, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.routes.ts'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

describe('route guards', () => {
  it('every guard reaches its routes through routeOptions, never an inline onRequest', () => {
    const files = routesFiles();
    expect(files.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(modules, file), 'utf8');
      for (const [i, line] of text.split('\n').entries()) {
        if (/\bonRequest\b/.test(line)) found.push(`${file}:${i + 1}: inline onRequest`);
        for (const match of line.matchAll(/(?:\w+\.)?guard\.require\w+/g)) {
          if (!/routeOptions\($/.test(line.slice(0, match.index)))
            found.push(`${file}:${i + 1}: ${match[0]} outside routeOptions`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
