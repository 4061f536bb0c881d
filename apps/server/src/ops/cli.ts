/**
 * What the operations commands (backup, restore, db:move) share as processes: a refusal or a
 * failure is one line on stderr and exit code 1 (a stack trace only for the unexpected).
 */
import type { Config } from '../platform/config/config.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { loadConfigOrExit } from '../platform/process.ts';

export function exitWithError(err: unknown): never {
  const known = err instanceof AppError;
  const line = known ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

/** The one positional argument of a command, or its usage line and exit code 2. */
export function singleArgument(usage: string): string {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  return args[0]!;
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const thousands = (n: number | string) => Number(n).toLocaleString('en-US');

/**
 * An operations command: its one argument (or the usage), the config (or the refusal), then what
 * `run` reports on stdout, or its failure on stderr.
 */
export async function runCommand(usage: string, run: (argument: string, config: Config) => Promise<string>) {
  const argument = singleArgument(usage);
  const config = loadConfigOrExit();
  try {
    process.stdout.write(await run(argument, config));
  } catch (err) {
    exitWithError(err);
  }
}
