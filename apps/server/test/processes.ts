/** Ecoa as separate processes, for the tests that kill one or run several on one database. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './helpers.ts';

/** How much of a child's output we keep, to explain a process that died. */
const STDERR_TAIL = 4_000;
const stderrOf = new WeakMap<ChildProcess, { text: string }>();

/** `npm start` (`src/main.ts`) or `npm run worker` (`src/worker.ts`) with `env` on top of ours. */
export function spawnEcoa(entry: 'main' | 'worker', env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', `src/${entry}.ts`], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
export async function startEcoaServer(env: Record<string, string>, port?: number): Promise<EcoaServer> {
  for (let attempt = 1; ; attempt++) {
    const chosen = attempt === 1 && port ? port : await freePort();
    const base = `http://127.0.0.1:${chosen}`;
    const child = spawnEcoa('main', { ...env, PORT: String(chosen), PUBLIC_URL: base });
    try {
      await waitUntilHealthy(child, base);
      return { child, port: chosen, base };
    } catch (err) {
      if (attempt < 3 && stderrOf.get(child)?.text.includes('EADDRINUSE')) continue;
      await killed(child, 'SIGKILL');
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

class ChildExited extends Error {}

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

export function killed(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
