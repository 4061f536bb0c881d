import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('crash guard', () => {
  it('an uncaught error fails the work it came from, and the process keeps running', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/fixtures/crash-guard-child.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.status, child.stderr).toBe(0);
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { work: 'floating', failed: 'invalid rows insert failed' },
      { work: 'thrown', failed: 'thrown from a timer' },
      { work: 'ok', value: 'done', alive: true },
    ]);
  });
});
