import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteLockFile } from '../src/platform/db/pglite-lock.ts';
import {
  ChildExited,
  type EcoaServer,
  killed,
  outputOf,
  type SpawnShape,
  spawnEcoa,
  startEcoaServer,
  waitUntil,
} from './processes.test-support.ts';
import { dbKind, freePort, tempDir } from './server.test-support.ts';

/**
 * `npm start` on the embedded database, stopped the hard way (ADR 016). The shell stays the
 * server's parent, as npm does. PGlite only: on PostgreSQL there is no lock to leave behind.
 */
const AS_NPM_DOES: SpawnShape = { wrapper: '"$@"; exit $?', group: true };

const running: ChildProcess[] = [];
/** Servers started in a session of their own: killing their parent does not end them. */
const detachedServers: number[] = [];
afterEach(async () => {
  for (const pid of detachedServers.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
  await Promise.all(running.splice(0).map((child) => killed(child, 'SIGKILL', true)));
});

async function start(dataDir: string, port?: number, shape: SpawnShape = AS_NPM_DOES): Promise<EcoaServer> {
  const server = await startEcoaServer({ DATA_DIR: dataDir, DATABASE_URL: '' }, port, shape);
  running.push(server.child);
  return server;
}

/**
 * The server as a process group of its own (`setsid`) whose parent reaps late: here never, until
 * the test ends (`sleep` waits for no child), as an init that reaps lazily or not at all. So a
 * killed server stays a zombie under its old pid while the next one starts.
 */
async function startUnderLateReaper(dataDir: string, port: number): Promise<{ pid: number; base: string }> {
  const base = `http://127.0.0.1:${port}`;
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), PUBLIC_URL: base };
  const parent = spawnEcoa('main', env, { wrapper: 'setsid "$@" & exec sleep 3600' });
  running.push(parent);
  let pid: number | undefined;
  await waitUntil('the server process', () => {
    pid = childrenOf(parent.pid!)[0];
    return pid !== undefined;
  });
  detachedServers.push(pid!);
  await waitUntil(`${base} to start`, async () => {
    const state = processState(pid!);
    if (state === undefined || state === 'Z') {
      // Its last words may still be in the pipe.
      await new Promise((resolve) => setTimeout(resolve, 500));
      throw new ChildExited(`the server ${pid} exited: ${outputOf(parent)}`);
    }
    return (await fetch(`${base}/api/health`)).ok;
  });
  return { pid: pid!, base };
}

/** A process's state letter (R, S, D, Z…) from /proc, or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[0];
  } catch {
    return undefined;
  }
}

function childrenOf(parent: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(parent);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const healthy = async (server: { base: string }) => (await fetch(`${server.base}/api/health`)).ok;

describe.runIf(dbKind === 'pglite')('the embedded server after a crash', () => {
  it('comes back at once after its process group is SIGKILLed, twenty times in a row', async () => {
    const dataDir = tempDir('ecoa-restart-');
    const port = await freePort();
    let server = await startUnderLateReaper(dataDir, port);
    const began = performance.now();
    for (let round = 1; round <= 20; round++) {
      // Killed, and started again at once, while the killed one is a zombie its parent has not reaped.
      process.kill(-server.pid, 'SIGKILL');
      const killedPid = server.pid;
      server = await startUnderLateReaper(dataDir, port);
      expect(processState(killedPid), `round ${round}: the killed server is still a zombie`).toBe('Z');
      expect(await healthy(server), `round ${round}`).toBe(true);
    }
    console.info(`20 SIGKILLs and restarts: ${((performance.now() - began) / 1000).toFixed(1)} s`);
  }, 600_000);

  it('starts over a stale pid file naming a live unrelated process', async () => {
    const dataDir = tempDir('ecoa-restart-');
    // A pid the kernel gave to something else since: a `sleep` of ours, and init.
    const sleeper = spawn('sleep', ['600']);
    try {
      for (const pid of [sleeper.pid!, 1]) {
        fs.mkdirSync(dataDir, { recursive: true });
        fs.writeFileSync(pgliteLockFile(path.join(dataDir, 'pglite')), `${pid}\n`);
        const server = await start(dataDir);
        expect(await healthy(server)).toBe(true);
        await killed(server.child, 'SIGKILL', true);
      }
    } finally {
      sleeper.kill('SIGKILL');
    }
  }, 300_000);

  it("starts over a stale pid file naming the new server's own pid (a container's restart)", async () => {
    const dataDir = tempDir('ecoa-restart-');
    fs.mkdirSync(dataDir, { recursive: true });
    const lockFile = pgliteLockFile(path.join(dataDir, 'pglite'));
    // The shell writes its pid and becomes the server: the file names exactly the process that reads it.
    const server = await start(dataDir, undefined, { wrapper: `echo $$ > '${lockFile}'; exec "$@"`, group: true });
    expect(await healthy(server)).toBe(true);
    expect(fs.readFileSync(lockFile, 'utf8').split('\n')[0]).toBe(String(server.child.pid));
  }, 300_000);

  it('refuses a second live server on the same DATA_DIR, naming the holder', async () => {
    const dataDir = tempDir('ecoa-restart-');
    const first = await start(dataDir);
    const second = spawnEcoa('main', { DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(await freePort()) });
    running.push(second);
    const code = await new Promise((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(outputOf(second)).toContain('PGLITE_IN_USE');
    // The first server: the node process its shell (the group's leader) runs.
    const holder = fs.readFileSync(pgliteLockFile(path.join(dataDir, 'pglite')), 'utf8').split('\n')[0];
    const parentOfHolder = fs.readFileSync(`/proc/${holder}/stat`, 'utf8').split(') ')[1]!.split(' ')[1];
    expect(parentOfHolder).toBe(String(first.child.pid));
    expect(outputOf(second)).toContain(`in use by process ${holder}`);
    expect(await healthy(first)).toBe(true);
  }, 300_000);
});
