/**
 * What a test file or describe block shares (a server, a rig, a database): opened before its
 * tests, handed to the block through `assign`, closed after its tests even when they fail.
 *
 *   let server: RunningServer;
 *   openBeforeAll(() => startCampaignsServer(), (opened) => (server = opened));
 */
import { afterAll, beforeAll } from 'vitest';
import type { RunningServer } from '../src/server.ts';
import { signUpAndSignIn } from './factories.test-support.ts';
import { createTestServer } from './server.test-support.ts';

export function openBeforeAll<T extends { close(): Promise<unknown> }>(
  open: () => Promise<T>,
  assign: (opened: T) => void,
): void {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
    assign(opened);
  });
  afterAll(async () => {
    await opened?.close();
  });
}

export type ServerWithUser = { server: RunningServer; token: string; userId: string; close(): Promise<void> };

/**
 * A test server and one signed-up user of it, shared by a test file:
 *
 *   openServerWithUser((opened) => ({ server, token } = opened));
 */
export function openServerWithUser(
  assign: (opened: ServerWithUser) => void,
  options: Parameters<typeof createTestServer>[0] = {},
): void {
  openBeforeAll(async () => {
    const server = await createTestServer(options);
    try {
      const { token, user } = await signUpAndSignIn(server);
      return { server, token, userId: user.id, close: () => server.close() };
    } catch (err) {
      await server.close();
      throw err;
    }
  }, assign);
}
