/**
 * Backup, restore and db:move on a real on-disk PGlite made by the real server: users signed up
 * through the API, ledger movements, a contact list, a rotating link that has taken turns, a file
 * in DATA_DIR. db:move needs a PostgreSQL server (DATABASE_URL); it gets a database of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makeAdmin, signUpAndSignIn } from '../../test/factories.test-support.ts';
import { createTestServer, TEST_DATABASE_URL, tempDir, testConfig } from '../../test/server.test-support.ts';
import { createDirectListsRepository } from '../modules/lists/lists.direct.repository.ts';
import { createZipFile } from '../platform/archive/zip-writer.ts';
import type { Config } from '../platform/config/config.ts';
import { openDb } from '../platform/db/client.ts';
import { MIGRATIONS_DIR } from '../platform/db/migrate.ts';
import type { AppError } from '../platform/errors/app-error.ts';
import type { RunningServer } from '../server.ts';
import { createBackup } from './backup.ts';
import { type DbFacts, ledgerInconsistencies, pgliteQuery, readDbFacts } from './db-facts.ts';
import { moveToPostgres } from './db-move.ts';
import { restoreBackup } from './restore.ts';

/** A config on the embedded PGlite in `dataDir`, whatever database the suite runs on. */
const pgliteConfig = (dataDir = tempDir('ecoa-ops-')): Config => ({
  ...testConfig({ DATA_DIR: dataDir }),
  databaseUrl: undefined,
});

const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
  const err = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as AppError | undefined;
  expect(err, 'expected a refusal').toBeDefined();
  return err!;
};

type Seeded = {
  userIds: string[];
  token: string;
  balances: Awaited<ReturnType<RunningServer['modules']['ledger']['getBalances']>>;
  listId: string;
  slug: string;
  clicks: string[];
  file: string;
};

/** A link click from its own address (the hop limits clicks per IP). */
const click = async (server: RunningServer, slug: string, i: number) => {
  const res = await server.app.inject({
    method: 'GET',
    url: `/l/${slug}`,
    remoteAddress: `10.9.${i >> 8}.${i & 255}`,
    headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)' },
  });
  return String(res.headers.location);
};

async function seed(server: RunningServer): Promise<Seeded> {
  const admin = await signUpAndSignIn(server);
  await makeAdmin(server, admin.user.id);
  const customer = await signUpAndSignIn(server);
  for (const [type, amount] of [
    ['BALANCE', 12_345],
    ['SMSSHORT', 700],
    ['SMSSHORT', -200],
    ['WHATSAPP', 50],
  ] as const) {
    await server.modules.ledger.adjust({
      userId: customer.user.id,
      type,
      amount,
      actorUserId: admin.user.id,
      reason: 'ops test',
    });
  }
  const contacts = ['+5511987650001', '+5511987650002', '+5511987650003', '+551133334444'].map((phone, i) => ({
    phone,
    kind: (i === 3 ? 'landline' : 'mobile') as 'mobile' | 'landline',
    name: `Contato ${i} "aspas"\ttab\\barra`,
    fields: { cidade: 'São Paulo\nSP' },
  }));
  const listId = await createDirectListsRepository(server.db.db).createFromContacts({
    userId: customer.user.id,
    name: 'Clientes',
    fileName: 'clientes.csv',
    fieldKeys: ['cidade'],
    contacts,
    now: new Date(),
  });
  // Messages, and with them the counts the database keeps of them (message_status_counts).
  await server.db.executeSql(
    `insert into messages (user_id, channel, to_phone, status, parts, provider, content)
     select $1, 'sms_short', '+5511987650001', 'delivered', 1, 'smpp', '{}'::jsonb from generate_series(1, 3)`,
    [customer.user.id],
  );
  const slug = `ops-${customer.user.id.slice(0, 8)}`;
  await server.modules.links.create(customer.user.id, {
    name: 'Equipe',
    slug,
    mode: 'round_robin',
    targets: [
      { kind: 'url', url: 'https://ecoa.example.com/ana' },
      { kind: 'url', url: 'https://ecoa.example.com/bia' },
    ],
  });
  const clicks = [];
  for (let i = 1; i <= 3; i++) clicks.push(await click(server, slug, i));
  const file = path.join('uploads', 'ops-test.csv');
  fs.mkdirSync(path.join(server.config.dataDir, 'uploads'), { recursive: true });
  fs.writeFileSync(path.join(server.config.dataDir, file), 'telefone;nome\n11987650001;Ana\n');
  const balances = await server.modules.ledger.getBalances(customer.user.id);
  return { userIds: [admin.user.id, customer.user.id], token: customer.token, balances, listId, slug, clicks, file };
}

/** What a restored or moved copy must show through the running server. */
async function expectSameData(server: RunningServer, seeded: Seeded) {
  const me = await server.app.inject({ method: 'GET', url: '/api/me', headers: bearer(seeded.token) });
  expect(me.statusCode, me.body).toBe(200);
  expect(await server.modules.ledger.getBalances(seeded.userIds[1]!)).toEqual(seeded.balances);
  const list = await server.app.inject({
    method: 'GET',
    url: `/api/v1/lists/${seeded.listId}`,
    headers: bearer(seeded.token),
  });
  expect(list.statusCode, list.body).toBe(200);
  expect(list.json()).toMatchObject({ name: 'Clientes', valid: 4 });
  // Round robin over two targets: the fourth click goes where the second went.
  expect(await click(server, seeded.slug, 4)).toBe(seeded.clicks[1]);
  expect(fs.readFileSync(path.join(server.config.dataDir, seeded.file), 'utf8')).toContain('Ana');
}

describe('backup, restore and db:move of an on-disk PGlite', () => {
  const config = pgliteConfig();
  let seeded: Seeded;
  let facts: DbFacts;
  let backupFile: string;

  beforeAll(async () => {
    const server = await createTestServer({ config, pgliteOnDisk: true });
    try {
      seeded = await seed(server);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('backs up into one file, refused while another handle holds the database', async () => {
    backupFile = path.join(tempDir('ecoa-backups-'), 'ecoa.zip');
    const holder = await openDb({ pgliteDir: path.join(config.dataDir, 'pglite') });
    try {
      const err = await refusal(createBackup({ config, file: backupFile }));
      expect(err.code).toBe('PGLITE_IN_USE');
      expect(err.message).toMatch(/Stop it first/);
    } finally {
      await holder.close();
    }
    expect(fs.existsSync(backupFile)).toBe(false);
    expect(
      (await refusal(createBackup({ config: { ...config, databaseUrl: 'postgres://x@h/db' }, file: backupFile })))
        .message,
    ).toMatch(/pg_dump/);

    // A mode of its own, to see it come back as it was (not merely private).
    fs.chmodSync(path.join(config.dataDir, seeded.file), 0o640);
    const result = await createBackup({ config, file: backupFile });
    facts = result.manifest;
    // Every account and the auth secret are in it: readable by its owner only, whatever the umask.
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    console.info(
      `backup: ${(result.bytes / 1024 / 1024).toFixed(2)} MB in ${result.seconds.toFixed(2)} s`,
      result.manifest.files,
    );
    expect(result.manifest).toMatchObject({ format: 'ecoa-backup', formatVersion: 1, database: 'pglite' });
    expect(result.manifest.migrations).toBeGreaterThanOrEqual(18);
    expect(result.manifest.tables).toMatchObject({ users: '2', contacts: '4', rotating_links: '1' });
    // 700 − 200 adjusted, and each user's welcome bonus.
    expect(Number(result.manifest.ledger.SMSSHORT!.available)).toBe(
      500 + 2 * (seeded.balances.SMSSHORT.available - 500),
    );
    expect(result.manifest.ledger.BALANCE).toMatchObject({ available: '12345', entriesAmount: '12345' });
    expect(ledgerInconsistencies(result.manifest.ledger)).toEqual([]);
    expect(Object.keys(result.manifest.files)).toEqual(expect.arrayContaining(['pglite', 'uploads', 'auth-secret']));
    expect(await refusal(createBackup({ config, file: backupFile }))).toMatchObject({ code: 'BACKUP_EXISTS' });
  }, 60_000);

  it('restores into an empty DATA_DIR only, and the server carries on from it', async () => {
    const restored = pgliteConfig();
    const result = await restoreBackup({ config: restored, file: backupFile });
    console.info(`restore: ${result.files} files in ${result.seconds.toFixed(2)} s`);
    expect(result.migrationsAfter).toBe(facts.migrations);
    const modeOf = (relative: string) => fs.statSync(path.join(restored.dataDir, relative)).mode & 0o777;
    expect(modeOf('auth-secret')).toBe(0o600);
    expect(modeOf(seeded.file)).toBe(0o640);
    expect(modeOf('pglite')).toBe(0o700);
    expect(await refusal(restoreBackup({ config: restored, file: backupFile }))).toMatchObject({
      code: 'RESTORE_NOT_EMPTY',
    });

    const server = await createTestServer({ config: restored, pgliteOnDisk: true });
    try {
      const now = await readDbFacts(pgliteQuery(server.db.pglite!));
      expect(now.ledger).toEqual(facts.ledger);
      expect(now.tables.users).toBe('2');
      await expectSameData(server, seeded);
    } finally {
      await server.close();
    }
  }, 60_000);

  describe.skipIf(!TEST_DATABASE_URL)('db:move to PostgreSQL', () => {
    const name = `ecoa_ops_move_${process.pid}_${Date.now().toString(36)}`;
    const targetUrl = (() => {
      const url = new URL(TEST_DATABASE_URL ?? 'postgres://localhost/x');
      url.pathname = `/${name}`;
      return url.toString();
    })();
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(sql).finally(() => client.end());
    };
    beforeAll(() => admin(`create database ${name}`));
    afterAll(() => admin(`drop database if exists ${name} with (force)`));

    it('copies every row, job and sequence; checked; a second move is refused', async () => {
      const source = { ...config, dataDir: config.dataDir };
      const lines: string[] = [];
      const result = await moveToPostgres({ config: source, targetUrl, onProgress: (l) => lines.push(l) });
      console.info(`db:move: ${result.seconds.toFixed(2)} s, ${result.jobs} jobs, ${result.sequences} sequences`);
      expect(result.facts.tables).toMatchObject(facts.tables);
      expect(result.facts.ledger).toEqual(facts.ledger);
      expect(result.sequences).toBeGreaterThan(5);

      const target = await openDb({ databaseUrl: targetUrl });
      try {
        const query = async (text: string, values?: unknown[]) => (await target.pool!.query(text, values)).rows;
        const moved = await readDbFacts(query);
        expect(moved.tables).toEqual(result.facts.tables);
        expect(moved.ledger).toEqual(facts.ledger);
        // The copy's COPY into messages did not count them a second time.
        expect(
          await query('select channel, status, sum(n)::int as n from message_status_counts group by 1, 2'),
        ).toEqual([{ channel: 'sms_short', status: 'delivered', n: 3 }]);
      } finally {
        await target.close();
      }

      const server = await createTestServer({ config: { ...config, databaseUrl: targetUrl } });
      try {
        await expectSameData(server, seeded);
      } finally {
        await server.close();
      }
      const again = await refusal(moveToPostgres({ config: source, targetUrl }));
      expect(again).toMatchObject({ code: 'DB_MOVE_TARGET_NOT_EMPTY' });
    }, 90_000);
  });
});

describe('restore of other backups', () => {
  it('brings a backup from an older Ecoa (one migration behind) forward', async () => {
    // This Ecoa's migrations without the last one, as an older release shipped them.
    const older = tempDir('ecoa-old-migrations-');
    fs.cpSync(MIGRATIONS_DIR, older, { recursive: true });
    const journalFile = path.join(older, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
    const latest = journal.entries.length;
    journal.entries = journal.entries.slice(0, -1);
    fs.writeFileSync(journalFile, JSON.stringify(journal));

    const config = pgliteConfig();
    const handle = await openDb({ pgliteDir: path.join(config.dataDir, 'pglite') });
    try {
      await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: older });
    } finally {
      await handle.close();
    }
    const file = path.join(tempDir('ecoa-backups-'), 'old.zip');
    const backup = await createBackup({ config, file });
    expect(backup.manifest.migrations).toBe(latest - 1);

    const result = await restoreBackup({ config: pgliteConfig(), file });
    expect(result).toMatchObject({ migrationsBefore: latest - 1, migrationsAfter: latest });
    // An initdb and every migration from scratch, then a backup and a restore, all on PGlite on
    // disk: ~40 s on a loaded machine; it timed out at 60 s twice while other tests ran beside it.
  }, 180_000);

  it('refuses an archive that is not a backup, or whose entries would leave DATA_DIR', async () => {
    const dir = tempDir('ecoa-bad-backups-');
    const write = async (name: string, entries: Record<string, string>) => {
      const zip = createZipFile(path.join(dir, name));
      for (const [entryName, text] of Object.entries(entries)) {
        const entry = zip.entry(entryName);
        await entry.write(text);
        await entry.end();
      }
      await zip.close();
      return path.join(dir, name);
    };
    const manifest = JSON.stringify({ format: 'ecoa-backup', formatVersion: 1, migrations: 1, tables: {}, ledger: {} });
    const cases = [
      [await write('plain.zip', { 'notes.txt': 'hello' }), 'BACKUP_INVALID'],
      [await write('evil.zip', { 'manifest.json': manifest, 'data/../escaped': 'x' }), 'BACKUP_INVALID'],
      [
        await write('future.zip', { 'manifest.json': manifest.replace('"formatVersion":1', '"formatVersion":9') }),
        'BACKUP_TOO_NEW',
      ],
    ] as const;
    for (const [file, code] of cases) {
      const target = pgliteConfig();
      expect(await refusal(restoreBackup({ config: target, file }))).toMatchObject({ code });
      expect(fs.readdirSync(target.dataDir)).toEqual([]);
      expect(fs.existsSync(`${target.dataDir}.restoring-${process.pid}`)).toBe(false);
    }
  });
});
