/**
 * What the benches that drive the whole server share: the server itself (not listening; driven by
 * inject), optionally pointed at a simulated SMSC, and a user holding credits an administrator gave.
 */
import os from 'node:os';
import type { CreditType } from '@ecoa/shared';
import type { SimulatorOverrides } from '../src/modules/channels/providers/index.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import type { DbHandle } from '../src/platform/db/client.ts';
import { createLogger } from '../src/platform/logger.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { makeAdmin, signUpAndSignIn } from '../test/factories.test-support.ts';
import { fixtureWebRoot } from '../test/server.test-support.ts';
import { SMPP_BENCH_CREDENTIALS } from './smpp.bench.ts';

/**
 * The server on `db`, silent; `smsc` points it at a simulated SMSC with no pace of its own and that
 * window. `extra.port`: listening there on loopback (for carriers' webhooks over HTTP, or load
 * from another process); `extra.simulators`: the in-process simulators tuned; `extra.work: false`:
 * no job workers (nothing dispatches what a bench seeded straight into the tables).
 */
export function startBenchServer(
  db: DbHandle,
  smsc?: { port: number; window: number },
  extra: { port?: number; simulators?: SimulatorOverrides; work?: boolean } = {},
): Promise<RunningServer> {
  const { systemId, password } = SMPP_BENCH_CREDENTIALS;
  const config = loadConfig({
    DATA_DIR: os.tmpdir(),
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    ...(extra.port && { PORT: String(extra.port), HOST: '127.0.0.1' }),
    ...(smsc && {
      SMPP_URL: `smpp://${systemId}:${password}@127.0.0.1:${smsc.port}?tps=100000&window=${smsc.window}`,
    }),
  });
  return startServer({
    config,
    logger: createLogger('silent'),
    listen: extra.port !== undefined,
    work: extra.work ?? true,
    db,
    webRoot: fixtureWebRoot(),
    simulators: extra.simulators,
  });
}

/** A signed-up user with `amount` credits of `type`, given by an administrator made for it. */
export async function benchUserWithCredits(server: RunningServer, type: CreditType, amount: number) {
  const account = await signUpAndSignIn(server);
  const admin = await signUpAndSignIn(server);
  await makeAdmin(server, admin.user.id);
  await server.modules.ledger.adjust({
    userId: account.user.id,
    type,
    amount,
    actorUserId: admin.user.id,
    reason: 'bench credits',
  });
  return account;
}
