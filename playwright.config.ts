import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * E2E in Debian's Chromium (never a downloaded browser) against the real server, started on a
 * fresh temporary DATA_DIR (PGlite), or on DATABASE_URL when set. `npm run test:e2e` builds first.
 */
const PORT = Number(process.env.E2E_PORT ?? 3199);
// Test workers load this file again: they must see the runner's directory, not make a new one.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'e2e',
  // Per port: several runs on one machine (E2E_PORT) must not clean each other's artifacts.
  outputDir: `test-results/${PORT}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Sized for a loaded CI machine, not an idle one: CI runs the PGlite and PostgreSQL suites side by
  // side on 2 cores, and there a page load that takes 1 s idle was seen taking 8 s (shell.spec's
  // admin-page redirects failed at 7 s and 30 s). A real hang still fails, a little later.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'only-on-failure',
    // A trace's screencast (a frame for every paint, encoded in the browser) was most of the suite's
    // CPU: the shell spec's Chromium and runner took 55 CPU-s with it, 36 with DOM snapshots only,
    // 31 with no trace. CI keeps no artifacts (it prints the failure and its screenshot's path),
    // so there it records none; locally a failure keeps its actions, DOM and network.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // The compiled server, as `npm start` runs it (scripts/serve.sh; built if its sources changed).
    command: 'node scripts/build-server.mjs --if-needed && exec sh scripts/serve.sh',
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    // The server's own log (warnings and errors only, LOG_LEVEL below) shows up in the run's output.
    stdout: 'pipe',
    timeout: 180_000, // a compiled server starts in ~5 s; on a loaded 2-core machine PGlite took 70 s
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      LOG_LEVEL: 'warn',
      // The administrator every admin spec signs in as (created on start, see ADMIN_EMAIL).
      ADMIN_EMAIL: 'admin@ecoa.test',
      // Not the default: the chat links must show the number this server was started with.
      SUPPORT_WHATSAPP: '5521987654321',
      // The embedded SMSC's control API, for specs that make its receipts late (polling.spec.ts).
      SMSC_SIMULATOR_CONTROL_PORT: String(PORT + 1000),
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
  },
});
