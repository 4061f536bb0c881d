/** Runs `http-load.ts` as its own process (its CPU is not the server's) and reads its figures. */
import { spawn } from 'node:child_process';
import path from 'node:path';

export type Load = {
  requestsPerSecond: number;
  total: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
};

export function httpLoad(
  url: string,
  options: { concurrency: number; seconds: number; headers?: Record<string, string> },
): Promise<Load> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'http-load.ts'), JSON.stringify({ url, ...options })],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Load) : reject(new Error(`load exited ${code}`)),
    );
  });
}
