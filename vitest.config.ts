import { defineConfig } from 'vitest/config';

/**
 * `npm test`: every test that needs no browser. Server tests use a real database: PGlite in
 * memory by default, the PostgreSQL server when DATABASE_URL is set (see .ci/run).
 */
export default defineConfig({
  test: {
    // Vitest's default on a 2-core machine is one file at a time, and most server tests spend their
    // time waiting on child servers, sockets and timers: three at a time took the PGlite suite
    // from 520 s to 312 s here, with both cores busy.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'shared',
          root: 'packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Each worker process loads the server's modules once and runs file after file on them
          // (ADR 025). Isolated, every file re-imported the whole server (2–3 s) and re-warmed the
          // JIT: lists + users + ledger took 229 s that way and 122 s this way. Tests share no
          // state through modules: each starts its own server on its own database and closes it.
          isolate: false,
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['test/setup.ts'],
          // Web tests render whole screens and many talk to the real server: on a 2-core machine
          // running server tests beside them, 5 s was not always enough for an honest pass.
          testTimeout: 30_000,
          // The real server the web tests that talk to the API use (test/real-api.test-support.ts).
          globalSetup: ['../server/test/web-api-server.ts'],
        },
      },
    ],
  },
});
