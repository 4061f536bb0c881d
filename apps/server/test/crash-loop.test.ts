import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dbKind, TEST_DATABASE_URL, tempDir } from './server.test-support.ts';

type Run = { code: number | null; signal: NodeJS.Signals | null; lines: Record<string, unknown>[] };

/** Starts one "server" process on the shared database and waits for it to end (or to be killed). */
function start(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/crashing-job-child.ts'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the process did not end in time: ${out} ${err}`));
    }, 45_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, signal, lines });
    });
  });
}

describe(`a job that crashes its process (${dbKind})`, () => {
  it('is run twice, then quarantined and given up with its reason, never a crash loop', async () => {
    const env = {
      CRASH_QUEUE: `test-crash-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
      ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: tempDir() }),
    };
    const first = await start({ ...env, SEND: '1' });
    expect(first.signal).toBe('SIGKILL');
    expect(first.lines).toEqual([{ running: expect.any(Number) }]);

    const second = await start(env);
    expect(second.signal).toBe('SIGKILL');
    expect(second.lines).toEqual([{ running: expect.any(Number) }]);

    // The third start does not run it again: it is quarantined and settled.
    const third = await start(env);
    expect(third.code).toBe(0);
    expect(third.lines).toEqual([
      { givenUp: { code: 'JOB_QUARANTINED', message: expect.stringContaining('stopped 2 times') } },
    ]);
  }, 150_000);
});
