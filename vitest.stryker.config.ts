import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` (Stryker, stryker.config.mjs) runs against each mutant: only the ones
 * that exercise the money and dispatch core, not the whole suite (a mutant's run would take
 * minutes on 2 cores). Stryker's Vitest runner runs them in one thread and, with per-test coverage,
 * only the tests that reach a mutant. Keep this list in step with `mutate` in stryker.config.mjs.
 *
 * `STRYKER_TESTS=<paths under apps/server, comma-separated>` runs only those server tests (and not
 * the shared ones): a file's mutants against the tests that matter for it, e.g.
 * `STRYKER_TESTS=src/modules/campaigns/campaigns.supervisor.test.ts npm run mutate -- --mutate <file>`.
 * Stryker's dry run runs every selected test once, which takes hours for the whole list below.
 */
const only = process.env.STRYKER_TESTS?.split(',')
  .map((path) => path.trim())
  .filter(Boolean);

const sharedProject = {
  test: {
    name: 'shared',
    root: 'packages/shared',
    include: ['src/campaigns/window.test.ts'],
    environment: 'node' as const,
  },
};

export default defineConfig({
  test: {
    projects: [
      ...(only?.length ? [] : [sharedProject]),
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: only?.length
            ? only
            : [
                'src/modules/channels/message-status.test.ts',
                'src/modules/ledger/*.test.ts',
                'src/platform/http/outbound.test.ts',
                'src/platform/config/config.outbound.test.ts',
                'src/platform/http/idempotency-key.test.ts',
                'src/modules/channels/channels.idempotency.test.ts',
                'src/modules/campaigns/campaigns.money.test.ts',
                'src/modules/campaigns/campaigns.lifecycle.test.ts',
                'src/modules/campaigns/campaigns.moves.test.ts',
                'src/modules/campaigns/campaigns.settle.test.ts',
                'src/modules/campaigns/campaigns.settle.property.test.ts',
                'src/modules/campaigns/campaigns.stop.test.ts',
                'src/modules/campaigns/campaigns.schedule.test.ts',
                'src/modules/channels/channels.inflight.test.ts',
                'src/modules/channels/early-receipts.test.ts',
                'src/modules/channels/channels.early-receipts.test.ts',
                'src/modules/channels/channels.batch.test.ts',
                'src/modules/channels/channels.test-send.test.ts',
                'src/modules/campaigns/campaigns.supervisor.test.ts',
                'src/modules/campaigns/campaigns.handover.test.ts',
                'src/modules/campaigns/campaigns.dispatcher.test.ts',
                'src/modules/campaigns/campaigns.dispatcher.loops.test.ts',
                'src/modules/campaigns/campaigns.settle-outcomes.test.ts',
              ],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
