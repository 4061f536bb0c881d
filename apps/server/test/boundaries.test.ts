import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** The module boundaries (.dependency-cruiser.cjs, docs/decisions/017-module-boundaries.md) hold, with no waiver. */
const root = path.resolve(import.meta.dirname, '../../..');

type Violation = { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] };

async function cruise(): Promise<Violation[]> {
  const bin = path.join(root, 'node_modules/.bin/depcruise');
  const args = [
    'apps/server/src',
    'apps/server/test',
    'apps/server/bench',
    'packages/shared/src',
    '--output-type',
    'json',
  ];
  // depcruise exits non-zero when it finds violations: its report is still on stdout.
  const { stdout } = await promisify(execFile)(bin, args, { cwd: root, maxBuffer: 256 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const show = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((c) => c.name).join(' → ') : v.to}`;

describe('module boundaries', () => {
  it('no cycles, platform/ imports no module, shared imports no app, modules meet only at their index', async () => {
    expect((await cruise()).map(show)).toEqual([]);
  }, 180_000);
});
