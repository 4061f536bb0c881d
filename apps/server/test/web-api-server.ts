import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDb } from '../src/platform/db/client.ts';
import { startServer } from '../src/server.ts';
import { makeAdmin, signUpAndSignIn } from './factories.test-support.ts';
import { fixtureWebRoot, listeningTestConfig, silentLogger } from './server.test-support.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The real Ecoa server the web tests that talk to the API use (see apps/web/test/real-api.test-support.ts). */
    webApi: {
      url: string;
      adminToken: string;
      adminId: string;
      userToken: string;
      userId: string;
      userEmail: string;
      /** Users no other test touches, one per test file that needs exact balances (money tests). */
      spareUsers: { token: string; id: string }[];
    };
  }
}

/** How many spare users the web tests get (realApi().spareUsers; which file uses which: real-api.test-support.ts). */
const SPARE_USERS = 5;

/**
 * Global setup of the web tests: the whole server (PGlite in memory, or the PostgreSQL test
 * database when DATABASE_URL is set) listening on a free loopback port, with an administrator
 * and a user signed in through the real endpoints. Web tests call it through the real API
 * client instead of mocking our API modules.
 */
export default async function setup(project: TestProject) {
  // Links and return URLs are on the page's origin: jsdom's default, http://localhost:3000 (a
  // loopback PUBLIC_URL also turns on the built-in test card checkout). Calls go to the port.
  const base = await listeningTestConfig({
    PUBLIC_URL: 'http://localhost:3000',
    // The number the support links must take from the server at run time (issue 20, 4.15).
    SUPPORT_WHATSAPP: '5521987654321',
  });
  // On PostgreSQL a database of its own (migrated on start): the server tests share theirs, and
  // their users would push the web tests' accounts off the first page of the users list.
  const own = base.databaseUrl ? await createDatabase(base.databaseUrl) : undefined;
  const config = own ? { ...base, databaseUrl: own.url } : base;
  const db = own ? undefined : await openDb({ pgliteDir: 'memory://' });
  const server = await startServer({
    config,
    logger: silentLogger,
    listen: true,
    work: false,
    webRoot: fixtureWebRoot(),
    db,
  });
  const admin = await signUpAndSignIn(server);
  await makeAdmin(server, admin.user.id);
  const user = await signUpAndSignIn(server);
  const spareUsers: { token: string; id: string }[] = [];
  for (let i = 0; i < SPARE_USERS; i++) {
    const spare = await signUpAndSignIn(server);
    spareUsers.push({ token: spare.token, id: spare.user.id });
  }
  project.provide('webApi', {
    url: `http://127.0.0.1:${config.port}`,
    adminToken: admin.token,
    adminId: admin.user.id,
    userToken: user.token,
    userId: user.user.id,
    userEmail: user.email,
    spareUsers,
  });
  return async () => {
    await server.close();
    await db?.close();
    await own?.drop();
  };
}

/** A new, empty database on the PostgreSQL server of `url`, dropped by `drop()`. */
async function createDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ecoa_web_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`).finally(() => admin.end());
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).finally(() => c.end());
    },
  };
}
