import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/server.test-support.ts';
import { openDb } from './client.ts';
import { acquirePgliteLock, pgliteLockFile, pgliteLockFiles } from './pglite-lock.ts';
import { currentProcessIdentity, formatIdentity } from './process-identity.ts';

const firstLine = (file: string) => fs.readFileSync(file, 'utf8').split('\n')[0];

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Another process holding the lock of `dir` (test/fixtures/pglite-lock-holder.ts) until killed. */
async function holder(dir: string, mechanism: 'socket' | 'file'): Promise<ChildProcess> {
  const script = path.resolve(import.meta.dirname, '../../../test/fixtures/pglite-lock-holder.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, dir, mechanism], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const said = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
  expect(JSON.parse(said)).toEqual({ pid: child.pid, mechanism });
  return child;
}

function killedNow(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/**
 * A process that has exited and that its parent (a `sleep`, which never waits) leaves a zombie. The
 * child outlives the shell's `exec` by a moment: one that ended first could be reaped by the shell.
 */
async function zombie(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(parent);
  const pid = Number(
    await new Promise<string>((resolve) => parent.stdout!.once('data', (c: Buffer) => resolve(`${c}`))),
  );
  for (let i = 0; i < 100 && state(pid) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
  expect(state(pid)).toBe('Z');
  return pid;
}

const stat = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
const state = (pid: number) => stat(pid)[0];

describe('the PGlite lock', () => {
  it('a second open of the same on-disk directory is refused, clearly, until the first closes', async () => {
    const dir = path.join(tempDir('pglite-lock-'), 'pglite');
    const first = await openDb({ pgliteDir: dir });
    try {
      expect(firstLine(pgliteLockFile(dir))).toBe(String(process.pid));
      expect(fs.statSync(pgliteLockFiles(dir).socket).isSocket()).toBe(true);
      await expect(openDb({ pgliteDir: dir })).rejects.toThrow(
        `The PGlite database in ${dir} is in use by process ${process.pid} (is \`npm start\` running?)`,
      );
    } finally {
      await first.close();
    }
    expect(fs.existsSync(pgliteLockFile(dir))).toBe(false);
    expect(fs.existsSync(pgliteLockFiles(dir).socket)).toBe(false);
    const again = await openDb({ pgliteDir: dir });
    await again.close();
  }, 60_000);

  it('a stale lock (its process is gone) is taken over; in-memory PGlite takes no lock', async () => {
    const dir = path.join(tempDir('pglite-lock-'), 'pglite');
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    fs.writeFileSync(pgliteLockFile(dir), `${dead}\n`);
    const lock = await acquirePgliteLock(dir);
    expect(firstLine(lock.file)).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
    const memory = await openDb({ pgliteDir: 'memory://' });
    const other = await openDb({ pgliteDir: 'memory://' });
    await memory.close();
    await other.close();
  }, 60_000);

  it('another live process holding the socket is named; killed, its files are no obstacle', async () => {
    const dir = path.join(tempDir('pglite-lock-'), 'pglite');
    const other = await holder(dir, 'socket');
    await expect(acquirePgliteLock(dir)).rejects.toMatchObject({ code: 'PGLITE_IN_USE', details: { pid: other.pid } });
    await expect(acquirePgliteLock(dir, { socket: false })).rejects.toMatchObject({ code: 'PGLITE_IN_USE' });
    await killedNow(other);
    // A kill -9 leaves both files behind; the socket no longer answers.
    expect(fs.statSync(pgliteLockFiles(dir).socket).isSocket()).toBe(true);
    expect(firstLine(pgliteLockFile(dir))).toBe(String(other.pid));
    const lock = await acquirePgliteLock(dir);
    expect(lock.mechanism).toBe('socket');
    expect(firstLine(lock.file)).toBe(String(process.pid));
    lock.release();
  }, 60_000);

  it('a pid file names a stale holder however its pid was reused; a live one holding the file is refused', async () => {
    const dir = path.join(tempDir('pglite-lock-'), 'pglite');
    const file = pgliteLockFile(dir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const me = currentProcessIdentity();
    const sleeper = spawn('sleep', ['60']);
    children.push(sleeper);
    const deadOne = await zombie();
    const asFile = (pid: number, startTime: string | undefined) =>
      formatIdentity({ pid, ...(startTime ? { startTime } : {}), ...(me.bootId ? { bootId: me.bootId } : {}) }, 'file');

    const stale = [
      ['a zombie', asFile(deadOne, stat(deadOne)[19])],
      ['a live process started at another time (the pid reused)', asFile(sleeper.pid!, '1')],
      ['another boot', formatIdentity({ pid: sleeper.pid!, startTime: stat(sleeper.pid!)[19], bootId: 'x' }, 'file')],
      ['this very process (the pid reused by us)', formatIdentity(me, 'file')],
      ['an Ecoa before ADR 016 (a bare pid), with the socket free', '1\n'],
    ];
    for (const [what, record] of stale) {
      fs.writeFileSync(file, record!);
      const lock = await acquirePgliteLock(dir, { socket: what!.includes('bare pid') });
      expect(firstLine(lock.file), what).toBe(String(process.pid));
      lock.release();
    }

    const live = await holder(dir, 'file');
    await expect(acquirePgliteLock(dir, { socket: false })).rejects.toMatchObject({ details: { pid: live.pid } });
    // Even with the socket free, a process that holds the lock through the file alone still counts.
    await expect(acquirePgliteLock(dir)).rejects.toMatchObject({ details: { pid: live.pid } });
    await killedNow(live);
    (await acquirePgliteLock(dir, { socket: false })).release();
  }, 60_000);

  it('a takeover left half-done by a process that died during it does not block for long', async () => {
    const dir = path.join(tempDir('pglite-lock-'), 'pglite');
    const files = pgliteLockFiles(dir);
    fs.mkdirSync(files.takeover, { recursive: true });
    const longAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(files.takeover, longAgo, longAgo);
    fs.writeFileSync(files.socket, '');
    const lock = await acquirePgliteLock(dir);
    expect(lock.mechanism).toBe('socket');
    expect(fs.existsSync(files.takeover)).toBe(false);
    lock.release();
  });
});
