/**
 * PGlite is an embedded database: its files belong to the one process that opened them, and a
 * second process writing the same directory would corrupt it. So whoever opens an on-disk PGlite
 * (the server, `npm run db:migrate`, backup, restore, db:move, `npm run cnpj:import`) first takes
 * this lock, beside the directory (ADR 016):
 *
 *   pglite.lock      a unix socket this process listens on for as long as it holds the lock. The
 *                    kernel closes it the moment the process dies (a kill -9, a zombie not yet
 *                    reaped), so a holder is alive exactly when a connect to it succeeds: no pid
 *                    is trusted, and a pid reused by the next process means nothing.
 *   pglite.pid       who holds it (pid, start time, boot id): names the holder in the refusal,
 *                    and is the lock itself where no socket can be bound (a filesystem without
 *                    sockets, a path too long for one), judged by process-identity.ts.
 *   pglite.takeover  a folder that serialises the removal of a dead holder's files, so two
 *                    processes starting together never both take over.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { AppError } from '../errors/app-error.ts';
import { currentProcessIdentity, formatIdentity, parseIdentity, processStillRuns } from './process-identity.ts';

export type PgliteLock = { file: string; mechanism: 'socket' | 'file'; release(): void };

export type PgliteLockFiles = { pidFile: string; socket: string; takeover: string };

export function pgliteLockFiles(dir: string): PgliteLockFiles {
  const base = path.resolve(dir);
  return { pidFile: `${base}.pid`, socket: `${base}.lock`, takeover: `${base}.takeover` };
}

/** The file naming the holder (`DATA_DIR/pglite.pid`). */
export function pgliteLockFile(dir: string): string {
  return pgliteLockFiles(dir).pidFile;
}

export function pgliteInUse(dir: string, pid: number | undefined): AppError {
  const holder = pid === undefined ? 'another process' : `process ${pid}`;
  const text = `The PGlite database in ${path.resolve(dir)} is in use by ${holder} (is \`npm start\` running?). Stop it and run the command again.`;
  return new AppError('PGLITE_IN_USE', { pid }, { text });
}

/** The pid files this process holds: one process opening the same directory twice is refused too. */
const heldHere = new Set<string>();

/**
 * Takes the lock of the PGlite directory `dir`, or throws PGLITE_IN_USE naming the live holder.
 * `socket: false` takes it through the pid file alone, as where no socket can be bound.
 */
export async function acquirePgliteLock(dir: string, options: { socket?: boolean } = {}): Promise<PgliteLock> {
  const files = pgliteLockFiles(dir);
  fs.mkdirSync(path.dirname(files.pidFile), { recursive: true });
  if (heldHere.has(files.pidFile)) throw pgliteInUse(dir, process.pid);
  heldHere.add(files.pidFile);
  let server: net.Server | undefined;
  try {
    server = options.socket === false ? undefined : await listenOnLockSocket(dir, files);
    const mechanism = server ? 'socket' : 'file';
    const record = await claimPidFile(dir, files, mechanism);
    return { file: files.pidFile, mechanism, release: releaser(files, record, server) };
  } catch (err) {
    heldHere.delete(files.pidFile);
    server?.close();
    throw err;
  }
}

/** The listening lock socket, or undefined where this platform or filesystem cannot hold one. */
async function listenOnLockSocket(dir: string, files: PgliteLockFiles): Promise<net.Server | undefined> {
  const address = socketAddress(files.socket);
  if (!address) return undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const listening = await listen(address);
    if (listening instanceof net.Server) return listening;
    if (listening !== 'EADDRINUSE') return undefined;
    if (await answers(address)) throw pgliteInUse(dir, recordedHolder(files)?.pid);
    // A dead holder's socket file (the kernel closed the socket, the file stays): remove it, but
    // only while no other start does the same, and only if it is still dead by then.
    await duringTakeover(files, async () => {
      if (!(await answers(address))) fs.rmSync(files.socket, { force: true });
    });
  }
  throw pgliteInUse(dir, recordedHolder(files)?.pid);
}

/**
 * Unix socket paths are short (107 bytes on Linux, 103 on macOS) and Node truncates a longer one
 * silently: a long DATA_DIR is reached relative to the working directory, or not by a socket.
 */
function socketAddress(file: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  const max = process.platform === 'linux' ? 107 : 103;
  if (Buffer.byteLength(file) <= max) return file;
  const relative = path.relative(process.cwd(), file);
  const address = relative.includes('/') ? relative : `./${relative}`;
  return Buffer.byteLength(address) <= max ? address : undefined;
}

function listen(address: string): Promise<net.Server | string> {
  return new Promise((resolve) => {
    // A prober only needs the connect to succeed: it is told nothing and hung up on.
    const server = net.createServer((connection) => connection.destroy());
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'ERROR'));
    server.listen(address, () => {
      server.removeAllListeners('error');
      server.on('error', () => {});
      // The lock must not keep a process alive that has nothing else to do.
      server.unref();
      resolve(server);
    });
  });
}

/** Whether a live process listens on the lock socket. Any answer but "nobody there" counts as alive. */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    const done = (alive: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(alive);
    };
    // A listener whose backlog is full (its event loop busy for seconds) is alive too.
    const timer = setTimeout(() => done(true), 2_000);
    socket.once('connect', () => done(true));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code !== 'ECONNREFUSED' && err.code !== 'ENOENT'));
  });
}

function recordedHolder(files: PgliteLockFiles) {
  try {
    return parseIdentity(fs.readFileSync(files.pidFile, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Writes this process into the pid file. With the socket held, a recorded holder matters only if
 * it held the lock through the file alone and still runs; without the socket, the file is the lock.
 */
async function claimPidFile(dir: string, files: PgliteLockFiles, mechanism: 'socket' | 'file'): Promise<string> {
  const record = formatIdentity(currentProcessIdentity(), mechanism);
  const holderMayRun = () => {
    const holder = recordedHolder(files);
    if (!holder) return undefined;
    // A record without `lock=` was written by an Ecoa before ADR 016, which is not running while this one starts.
    const checked = mechanism === 'file' || holder.mechanism === 'file';
    return checked && processStillRuns(holder) ? holder : undefined;
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(files.pidFile, record, { flag: 'wx' });
      return record;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = holderMayRun();
    if (holder) throw pgliteInUse(dir, holder.pid);
    await duringTakeover(files, async () => {
      if (!holderMayRun()) fs.rmSync(files.pidFile, { force: true });
    });
  }
  throw pgliteInUse(dir, recordedHolder(files)?.pid);
}

/** A takeover folder older than this was left by a process that died in the middle of one (they take milliseconds). */
const TAKEOVER_STALE_MS = 5_000;

async function duringTakeover(files: PgliteLockFiles, takeOver: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 3 * TAKEOVER_STALE_MS;
  for (;;) {
    try {
      fs.mkdirSync(files.takeover);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const since = modifiedAt(files.takeover);
    if (since !== undefined && Date.now() - since > TAKEOVER_STALE_MS) {
      fs.rmSync(files.takeover, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`could not take over the PGlite lock: ${files.takeover} stays`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  try {
    await takeOver();
  } finally {
    fs.rmSync(files.takeover, { recursive: true, force: true });
  }
}

function modifiedAt(file: string): number | undefined {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

function releaser(files: PgliteLockFiles, record: string, server: net.Server | undefined): () => void {
  let released = false;
  // A process that exits without closing the database (Ctrl-C in a CLI) leaves no lock behind.
  const onExit = () => release();
  process.once('exit', onExit);
  function release(): void {
    if (released) return;
    released = true;
    process.removeListener('exit', onExit);
    heldHere.delete(files.pidFile);
    // The pid file first, while the socket still keeps others out; only if it is still ours.
    let recorded: string | undefined;
    try {
      recorded = fs.readFileSync(files.pidFile, 'utf8');
    } catch {}
    if (recorded === record) fs.rmSync(files.pidFile, { force: true });
    // Closing the socket also removes its file (libuv unlinks a listening pipe on close).
    server?.close();
  }
  return release;
}
