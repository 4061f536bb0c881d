/**
 * PGlite is an embedded database: its files belong to the one process that opened them, and a
 * second process writing the same directory would corrupt it. So whoever opens an on-disk PGlite
 * (the server, `npm run db:migrate`, `npm run cnpj:import`) first takes a pid lock file beside
 * the directory (`DATA_DIR/pglite.pid`); a lock whose process is gone (a crash, a kill -9) is
 * taken over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../errors/app-error.ts';

export type PgliteLock = { file: string; release(): void };

export function pgliteLockFile(dir: string): string {
  const resolved = path.resolve(dir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.pid`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function pgliteInUse(dir: string, pid: number): AppError {
  return new AppError(
    'PGLITE_IN_USE',
    409,
    `The PGlite database in ${path.resolve(dir)} is in use by process ${pid} (is \`npm start\` running?). Stop it and run the command again.`,
    { pid },
  );
}

/** Takes the lock of the PGlite directory `dir`, or throws PGLITE_IN_USE naming the live holder. */
export function acquirePgliteLock(dir: string): PgliteLock {
  const file = pgliteLockFile(dir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return { file, release: releaser(file) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readPid(file);
    // Our own pid counts as a holder too: one process opening the same directory twice is refused.
    if (holder !== undefined && processAlive(holder)) throw pgliteInUse(dir, holder);
    // Stale (the holder died) or unreadable (a crash mid-write): take it over.
    fs.rmSync(file, { force: true });
  }
  throw new Error(`could not take the PGlite lock ${file}`);
}

function releaser(file: string): () => void {
  let released = false;
  // A process that exits without closing the database (Ctrl-C in a CLI) leaves no lock behind.
  const onExit = () => release();
  process.once('exit', onExit);
  function release(): void {
    if (released) return;
    released = true;
    process.removeListener('exit', onExit);
    // Only remove the lock if it is still ours (a takeover after we were presumed dead is not).
    if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
  }
  return release;
}
