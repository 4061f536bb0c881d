import type { TestProject } from 'vitest/node';
import { openDb } from '../src/platform/db/client.ts';
import { startServer } from '../src/server.ts';
import { makeAdmin, signUpAndSignIn } from './factories.ts';
import { fixtureWebRoot, listeningTestConfig, silentLogger } from './helpers.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The real Ecoa server the web tests that talk to the API use (see apps/web/test/real-api.ts). */
    webApi: {
      url: string;
      adminToken: string;
      adminId: string;
      userToken: string;
      userId: string;
      userEmail: string;
    };
  }
}

/**
 * Global setup of the web tests: the whole server (PGlite in memory, or the PostgreSQL test
 * database when DATABASE_URL is set) listening on a free loopback port, with an administrator
 * and a user signed in through the real endpoints. Web tests call it through the real API
 * client instead of mocking our API modules.
 */
export default async function setup(project: TestProject) {
  // Links and return URLs are on the page's origin: jsdom's default, http://localhost:3000 (a
  // loopback PUBLIC_URL also turns on the built-in test card checkout). Calls go to the port.
  const config = await listeningTestConfig({ PUBLIC_URL: 'http://localhost:3000' });
  const db = config.databaseUrl ? undefined : await openDb({ pgliteDir: 'memory://' });
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
  project.provide('webApi', {
    url: `http://127.0.0.1:${config.port}`,
    adminToken: admin.token,
    adminId: admin.user.id,
    userToken: user.token,
    userId: user.user.id,
    userEmail: user.email,
  });
  return async () => {
    await server.close();
    await db?.close();
  };
}
