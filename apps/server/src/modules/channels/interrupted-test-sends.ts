/**
 * Test sends whose process died midway, settled by a job every minute (ADR 010): never resent,
 * never left reserved. The test send itself (channels.service.ts) checks its row before each
 * step, so a process that was only slow never sends or pays twice after this settled it.
 */
import { CHANNEL_CREDIT_TYPE } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { ChannelsRepository } from './channels.repository.ts';

export function createInterruptedTestSends(deps: {
  db: Database;
  repo: Pick<ChannelsRepository, 'interruptedTestSends' | 'settleWithoutCarrier'>;
  ledger: Pick<LedgerService, 'capture' | 'release' | 'outstandingReservation'>;
  clock: Clock;
  logger: Logger;
}) {
  const { db, repo, ledger, clock, logger } = deps;
  return {
    /**
     * Test sends whose process died, never resent, never left reserved. Left `submitting` (it
     * died during the carrier call): the carrier may have sent them, so they become `unknown`
     * and their credits are captured. Left `queued` (it died after creating the message, before
     * the call): never sent, so they fail and their credits come back. Runs every minute; a call
     * has long timed out by `olderThanMs`. Returns how many this call settled.
     */
    async settle(olderThanMs = 10 * 60_000): Promise<number> {
      const stuck = await repo.interruptedTestSends(new Date(clock.now().getTime() - olderThanMs));
      let settled = 0;
      for (const message of stuck) {
        const sentMaybe = message.status === 'submitting';
        const type = CHANNEL_CREDIT_TYPE[message.channel];
        const reference = { type: 'message', id: message.id };
        try {
          // What the message still holds (all its parts, unless its row was written some other
          // way): a row that holds less settles all the same instead of failing every minute.
          // Read before the transaction (PGlite's one connection is the transaction's then);
          // the capture or release checks it again under the balance's lock.
          const held = await ledger.outstandingReservation(message.userId, type, reference);
          const moved = await db.transaction(async (tx) => {
            const status = sentMaybe ? 'unknown' : 'failed';
            const reason = sentMaybe ? 'SUBMIT_INTERRUPTED' : 'SEND_INTERRUPTED';
            // Only what this call settled moves credits (another process's sweep, or the send
            // itself, may have settled it since it was read).
            if (!(await repo.settleWithoutCarrier(message.id, status, reason, clock.now(), tx))) return false;
            const move = { userId: message.userId, type, amount: Math.min(message.parts, held), reference, tx };
            if (move.amount > 0) await (sentMaybe ? ledger.capture(move) : ledger.release(move));
            return true;
          });
          if (!moved) continue;
          settled++;
          logger.warn(
            { messageId: message.id, status: message.status, parts: message.parts, held },
            sentMaybe
              ? 'test send interrupted during the carrier call: unknown, credits captured'
              : 'test send interrupted before the carrier call: failed, credits released',
          );
        } catch (err) {
          // One message's trouble never holds the others (it is tried again next minute).
          logger.error({ err, messageId: message.id }, 'interrupted test send could not be settled');
        }
      }
      return settled;
    },
  };
}
