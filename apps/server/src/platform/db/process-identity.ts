/**
 * Who a process is, beyond its pid. A pid alone names a process only while it lives: after a
 * crash the kernel hands the number to the next process (in a container, often the very next
 * Ecoa), and a killed process stays a zombie until its parent reaps it, which an init that
 * does not reap never does. So a holder is recorded as pid + its start time (field 22 of
 * /proc/<pid>/stat, clock ticks since boot) + the boot id: the same three later mean the same
 * process; a zombie counts as dead (its files and sockets are already closed).
 * Without /proc (macOS, Windows) only the pid can be checked.
 */
import fs from 'node:fs';

export type ProcessIdentity = { pid: number; startTime?: string; bootId?: string };

type ProcStat = { state: string; startTime: string };

/** /proc/<pid>/stat's state and start time, or undefined when there is no such process (or no /proc). */
function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so fields count from the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : undefined;
}

function bootId(): string | undefined {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

const hasProc = () => fs.existsSync('/proc/self/stat');

/** This process, as a later reader will recognise it. */
export function currentProcessIdentity(): ProcessIdentity {
  const stat = procStat(process.pid);
  const boot = bootId();
  return { pid: process.pid, ...(stat ? { startTime: stat.startTime } : {}), ...(boot ? { bootId: boot } : {}) };
}

/**
 * Whether the process that recorded `identity` still runs. Our own pid is never "another live
 * process": the caller tells apart what this process holds itself.
 */
export function processStillRuns(identity: ProcessIdentity): boolean {
  if (identity.pid === process.pid) return false;
  if (hasProc()) {
    if (identity.bootId && identity.bootId !== bootId()) return false;
    const stat = procStat(identity.pid);
    if (!stat) return false;
    // Z: exited, not yet reaped; X: being reaped.
    if (stat.state === 'Z' || stat.state === 'X') return false;
    return identity.startTime === undefined || identity.startTime === stat.startTime;
  }
  try {
    process.kill(identity.pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function formatIdentity(identity: ProcessIdentity, mechanism: string): string {
  const lines = [String(identity.pid), `lock=${mechanism}`];
  if (identity.startTime) lines.push(`start=${identity.startTime}`);
  if (identity.bootId) lines.push(`boot=${identity.bootId}`);
  return `${lines.join('\n')}\n`;
}

/** The identity a lock file records (`formatIdentity`), or a bare pid as older Ecoas wrote it. */
export function parseIdentity(text: string): (ProcessIdentity & { mechanism?: string }) | undefined {
  const [first, ...rest] = text.split('\n');
  const pid = Number.parseInt(first?.trim() ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const fields = new Map(rest.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
  const startTime = fields.get('start');
  const boot = fields.get('boot');
  const mechanism = fields.get('lock');
  return {
    pid,
    ...(startTime ? { startTime } : {}),
    ...(boot ? { bootId: boot } : {}),
    ...(mechanism ? { mechanism } : {}),
  };
}
