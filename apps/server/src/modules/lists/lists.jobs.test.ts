import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { uploadAs } from '../../../test/http.test-support.ts';
import { waitForListImported } from '../../../test/lists.test-support.ts';
import { multipart } from '../../../test/multipart.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { listImportQueue } from './lists.jobs.ts';
import { createListsRepository } from './lists.repository.ts';

/** Imports heal: a list and its job exist together, a transient database error is retried, a given-up job settles its list. */
describe(`list import jobs (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    // A database of its own on PostgreSQL: the lost-connection test ends the COPY of this
    // database's import, and no other test file's import runs here.
    server = await createTestServer({ isolated: true });
    const signed = await signUpAndSignIn(server);
    token = signed.token;
    userId = signed.user.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const sql = async (text: string, values: unknown[]) => (await server.db.executeSql(text, values)).rows;

  const newList = (uploadPath: string) => ({
    userId,
    name: 'Lista',
    fileName: 'x.csv',
    fileKind: 'csv' as const,
    fileSize: 10,
    uploadPath,
    mapping: null,
  });

  it('creates a list and enqueues its import in one transaction: both or neither', async () => {
    const repo = createListsRepository(server.db);
    const jobs = server.jobs;
    const id = await repo.create(newList('/nowhere/a.upload'), (listId, tx) =>
      jobs.send(listImportQueue, { listId }, { singletonKey: listId, tx, startAfterSeconds: 3600 }),
    );
    expect(await sql('select status from contact_lists where id = $1', [id])).toEqual([{ status: 'importing' }]);
    expect(await sql('select name from pgboss.job where singleton_key = $1', [id])).toEqual([
      { name: listImportQueue.name },
    ]);

    let failedId: string | undefined;
    await expect(
      repo.create(newList('/nowhere/b.upload'), async (listId, tx) => {
        failedId = listId;
        await jobs.send(listImportQueue, { listId }, { singletonKey: listId, tx, startAfterSeconds: 3600 });
        throw new Error('the process stopped right after enqueueing');
      }),
    ).rejects.toThrow('stopped right after');
    expect(failedId).toBeDefined();
    expect(await sql('select id from contact_lists where id = $1', [failedId])).toEqual([]);
    expect(await sql('select id from pgboss.job where singleton_key = $1', [failedId])).toEqual([]);
  });

  it('a given-up import fails its list with the reason and removes its upload', async () => {
    const upload = path.join(server.config.dataDir, 'uploads', `${crypto.randomUUID()}.upload`);
    fs.mkdirSync(path.dirname(upload), { recursive: true });
    fs.writeFileSync(upload, 'telefone\n11912345678\n');
    const id = await createListsRepository(server.db).create(newList(upload), async () => {});

    await server.modules.lists.giveUpImport(id, { code: 'JOB_QUARANTINED', message: 'quarantined' });
    const list = await waitForListImported(server, token, id);
    expect(list).toMatchObject({ status: 'failed', errorCode: 'IMPORT_CRASHED' });
    expect(fs.existsSync(upload)).toBe(false);
  });

  it.runIf(dbKind === 'postgres')(
    'a connection lost mid-import is retried by the job, and the list ends ready with each contact once',
    async () => {
      const rows = 150_000;
      const lines = ['telefone;nome'];
      for (let i = 0; i < rows; i++) lines.push(`119${String(10_000_000 + i).padStart(8, '0')};Contato ${i}`);
      const form = multipart([{ name: 'file', filename: 'grande.csv', content: Buffer.from(lines.join('\n')) }]);
      const res = await uploadAs(server, token, '/api/v1/lists', form);
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id as string;

      // Kill the import's COPY connection as soon as it runs: the server hangs up on it (57P01-like).
      // Only this file's database: other test files and other runs share the PostgreSQL server.
      const deadline = Date.now() + 20_000;
      let killed = false;
      while (!killed && Date.now() < deadline) {
        const copying = await sql(
          `select pid from pg_stat_activity
           where datname = current_database() and query like 'COPY contacts%' and state = 'active'
             and pid <> pg_backend_pid()`,
          [],
        );
        for (const { pid } of copying as { pid: number }[]) {
          await sql('select pg_terminate_backend($1)', [pid]);
          killed = true;
        }
        if (!killed) await new Promise((r) => setTimeout(r, 20));
      }
      expect(killed).toBe(true);

      const list = await waitForListImported(server, token, id, 60_000);
      expect(list).toMatchObject({ status: 'ready', total: rows, valid: rows });
      expect(await sql('select count(*)::int as n from contacts where list_id = $1', [id])).toEqual([{ n: rows }]);
      const [job] = (await sql('select retry_count from pgboss.job where singleton_key = $1', [id])) as {
        retry_count: number;
      }[];
      expect(job!.retry_count).toBeGreaterThanOrEqual(1);
    },
    90_000,
  );
});
