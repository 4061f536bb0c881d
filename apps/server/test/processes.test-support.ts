/** Ecoa as separate processes, for the tests that kill one or run several on one database. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './server.test-support.ts';

/** How much of a child's output we keep, to explain a process that died. */
const STDERR_TAIL = 4_000;
const stderrOf = new WeakMap<ChildProcess, { text: string }>();

/**
 * How a child is started. `wrapper`: a `sh -c` script that runs the server as `"$@"` (so the
 * shell can stay its parent as npm does, or write its own pid somewhere and `exec` it);
 * `group`: the child leads a process group of its own, to be killed as a whole.
 */
export type SpawnShape = { wrapper?: string; group?: boolean };

/** `npm start` (`src/main.ts`) or `npm run worker` (`src/worker.ts`) with `env` on top of ours. */
export function spawnEcoa(entry: 'main' | 'worker', env: Record<string, string>, shape: SpawnShape = {}): ChildProcess {
  const node = [process.execPath, '--import', 'tsx', `src/${entry}.ts`];
  const [command, ...args] = shape.wrapper ? ['sh', '-c', shape.wrapper, 'sh', ...node] : node;
  const child = spawn(command!, args, {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: shape.group ?? false,
  });
  // stderr is shown as it comes; stdout (JSON logs, where a fatal start error lands) is only kept.
  const tail = { text: '' };
  stderrOf.set(child, tail);
  const keep = (chunk: Buffer) => {
    tail.text = (tail.text + chunk.toString()).slice(-STDERR_TAIL);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    keep(chunk);
  });
  return child;
}

export type EcoaServer = { child: ChildProcess; port: number; base: string };

/**
 * Starts `npm start` on a free loopback port (PORT and PUBLIC_URL set here) and waits until it
 * is healthy. A port found free can be taken by another test's socket before the child binds it
 * (the suite runs many servers in parallel): a child that dies with EADDRINUSE is started again
 * on another port. `port` asks for a given one (a restart), with the same fallback.
 */
export async function startEcoaServer(
  env: Record<string, string>,
  port?: number,
  shape: SpawnShape = {},
): Promise<EcoaServer> {
  for (let attempt = 1; ; attempt++) {
    const chosen = attempt === 1 && port ? port : await freePort();
    const base = `http://127.0.0.1:${chosen}`;
    const child = spawnEcoa('main', { ...env, PORT: String(chosen), PUBLIC_URL: base }, shape);
    try {
      await waitUntilHealthy(child, base);
      return { child, port: chosen, base };
    } catch (err) {
      if (attempt < 3 && stderrOf.get(child)?.text.includes('EADDRINUSE')) continue;
      await killed(child, 'SIGKILL', shape.group);
      throw err;
    }
  }
}

/** Waits for `/api/health`; fails at once, with the child's last words, if the child exits. */
export async function waitUntilHealthy(child: ChildProcess, base: string, timeoutMs = 90_000): Promise<void> {
  await waitUntil(
    `${base} to start`,
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        const said = stderrOf.get(child)?.text.trim() ?? '';
        throw new ChildExited(`the process for ${base} exited (${child.exitCode ?? child.signalCode}): ${said}`);
      }
      return (await fetch(`${base}/api/health`)).ok;
    },
    timeoutMs,
  );
}

/** Thrown from a `waitUntil` check: stops the wait at once instead of retrying. */
export class ChildExited extends Error {}

export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 90_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await Promise.resolve()
      .then(check)
      .catch((err) => {
        if (err instanceof ChildExited) throw err;
        return false;
      });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sends `signal` to the child (to its whole process group with `group`) and waits for it to exit. */
export function killed(child: ChildProcess, signal: NodeJS.Signals, group = false): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    try {
      if (group) process.kill(-child.pid!, signal);
      else child.kill(signal);
    } catch {
      // Not a group leader after all (or already gone): the child alone.
      child.kill(signal);
    }
  });
}

/** What the child printed last (stdout and stderr), to read a refusal. */
export function outputOf(child: ChildProcess): string {
  return stderrOf.get(child)?.text ?? '';
}
