/**
 * A contact list's import runs as a job: a test that uploads one waits here until it ended, as the
 * web's list page does, reading `GET /api/v1/lists/:id` as its owner.
 */
import type { RunningServer } from '../src/server.ts';
import { injectAs } from './http.test-support.ts';

export type ImportedList = { id: string; status: string; errorCode?: string | null } & Record<string, unknown>;

/**
 * The list once its import ended (`ready` or `failed`: the caller asserts which). Throws when the
 * read is refused, or when it is still importing after `timeoutMs` (imports queue behind each
 * other, so a loaded machine needs the generous default).
 */
export async function waitForListImported(
  server: RunningServer,
  token: string,
  listId: string,
  timeoutMs = 25_000,
): Promise<ImportedList> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${listId}` });
    if (res.statusCode !== 200) throw new Error(`list ${listId}: ${res.statusCode} ${res.body}`);
    const list = res.json() as ImportedList;
    if (list.status !== 'importing') return list;
    if (Date.now() > deadline) throw new Error(`list ${listId} still importing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
