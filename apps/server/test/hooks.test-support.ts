/**
 * What a test file or describe block shares (a server, a rig, a database): opened before its
 * tests, handed to the block through `assign`, closed after its tests even when they fail.
 *
 *   let server: RunningServer;
 *   openBeforeAll(() => startCampaignsServer(), (opened) => (server = opened));
 */
import { afterAll, beforeAll } from 'vitest';

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
