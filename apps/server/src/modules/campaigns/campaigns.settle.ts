/**
 * A batch's settlement (ADR 011): every outcome and its credits in ONE transaction. The rules
 * that keep credits exact are structural here, not left to the callers:
 *
 * - The campaign row is locked first (the order of every campaign transaction: start, cancel,
 *   completion, the supervisor's cut-off), so a cancel or a cut-off of this campaign cannot
 *   commit between what this transaction reads and what it writes.
 * - Credits move only for recipients this transaction takes out of `submitting` while they were
 *   still claimed by this worker when it began. A recipient someone else already settled (the
 *   supervisor cut it off, a receipt) has had its credits moved by them: its carrier ids are
 *   still stored, so its receipts match, but it is never captured or released twice.
 * - What was never handed to the carrier (it said "try later", or the sending stopped first)
 *   goes back by the campaign's status: `queued` in a live or paused campaign, `canceled` with
 *   its credits released in a canceled one (which would otherwise never finish and keep its
 *   reservation).
 */
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import type { InflightBatch, StatusEvent, SubmittedBatchResult } from '../channels/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import type { CampaignRow } from './campaigns.schema.ts';

/** Where a batch's outcomes are stored (the channels module's set-based writes). */
export type RecipientStore = {
  recordSubmittedBatch(
    rows: { messageId: string; provider: string; providerIds: string[] }[],
    now: Date,
    arrived: StatusEvent[],
    tx: DbOrTx,
  ): Promise<SubmittedBatchResult>;
  /** Returns the ids that moved (a message settled meanwhile does not). */
  settleBatch(
    rows: { messageId: string; status: 'failed' | 'unknown' | 'opted_out' | 'canceled'; reason: string | null }[],
    now: Date,
    tx: DbOrTx,
  ): Promise<Set<string>>;
  /** A batch the receipts of its submits can join while it is being sent (channels' in-flight registry). */
  inflightBatch(): InflightBatch;
};

export type Outcome =
  | { id: string; parts: number; kind: 'sent'; providerIds: string[] }
  | { id: string; parts: number; kind: 'failed' | 'opted_out'; reason: string }
  /** The carrier may have sent it: captured, never re-sent; the ids of parts it took are kept. */
  | { id: string; parts: number; kind: 'unknown'; reason: string; providerIds?: string[] }
  /** The carrier said nothing left Ecoa (throttled, down), or it failed before its submit: it goes back. */
  | { id: string; parts: number; kind: 'retry'; reason: string; message: string }
  /** The sending stopped (pause, cancel, the process stopping) before it was handed to the carrier: it goes back. */
  | { id: string; parts: number; kind: 'unsent'; reason: string };

export type SettleDeps = {
  db: Database;
  repo: CampaignsRepository;
  store: Pick<RecipientStore, 'recordSubmittedBatch' | 'settleBatch'>;
  ledger: Pick<LedgerService, 'capture' | 'release'>;
  workerId: string;
};

export type Settled = {
  /** The campaign's status when the batch was settled. */
  status: CampaignRow['status'];
  followUps: { event: StatusEvent; messageId: string }[];
};

const sum = (list: Outcome[]) => list.reduce((n, o) => n + o.parts, 0);
const CAPTURED = new Set<Outcome['kind']>(['sent', 'unknown']);
/** Never handed to the carrier (it said "try later", or the sending stopped first): it goes back. */
const goesBack = (o: Outcome) => o.kind === 'retry' || o.kind === 'unsent';

export function createSettler(deps: SettleDeps) {
  const { repo, store, ledger } = deps;

  /** Every outcome of a batch and its credits, in one transaction; `inflight`'s receipts ride with it. */
  async function settle(
    row: CampaignRow,
    providerName: string,
    outcomes: Outcome[],
    inflight: InflightBatch,
    now: Date,
  ): Promise<Settled> {
    const arrived = inflight.take();
    const result = await deps.db.transaction(async (tx) => {
      const campaign = (await repo.lockById(row.id, tx)) ?? row;
      const held = await repo.heldBy(
        outcomes.map((o) => o.id),
        deps.workerId,
        tx,
      );
      const canceled = campaign.status === 'CANCELED';
      // Everything the carrier took has its ids stored, also a recipient settled meanwhile (its receipts must match).
      const taken = outcomes.flatMap((o) =>
        o.kind === 'sent' || (o.kind === 'unknown' && o.providerIds?.length)
          ? [{ messageId: o.id, provider: providerName, providerIds: o.providerIds! }]
          : [],
      );
      const submitted = await store.recordSubmittedBatch(taken, now, arrived, tx);
      // Stryker disable next-line MethodExpression,LogicalOperator: equivalent: unclaim moves only rows still `submitting` under this worker's claim, which are the held ones that go back (those taken or ended above are not `submitting` any more)
      const back = outcomes.filter((o) => goesBack(o) && held.has(o.id));
      type End = Parameters<SettleDeps['store']['settleBatch']>[0][number];
      const ends = outcomes.flatMap((o): End[] => {
        // Stryker disable next-line ArrayDeclaration: equivalent: an entry with no messageId matches no message, settleBatch skips it
        if (!held.has(o.id)) return [];
        if (o.kind === 'failed' || o.kind === 'opted_out' || o.kind === 'unknown')
          return [{ messageId: o.id, status: o.kind, reason: o.reason }];
        if (canceled && goesBack(o)) return [{ messageId: o.id, status: 'canceled', reason: null }];
        // Stryker disable next-line ArrayDeclaration: equivalent: an entry with no messageId matches no message, settleBatch skips it
        return [];
      });
      const ended = await store.settleBatch(ends, now, tx);
      if (!canceled)
        await repo.unclaim(
          back.map((o) => o.id),
          deps.workerId,
          tx,
        );
      // Credits for exactly the recipients this transaction took out of `submitting` under this worker's claim.
      const moved = outcomes.filter((o) => held.has(o.id) && (submitted.moved.has(o.id) || ended.has(o.id)));
      const used = sum(moved.filter((o) => CAPTURED.has(o.kind)));
      const released = sum(moved.filter((o) => !CAPTURED.has(o.kind)));
      const reference = { type: 'campaign', id: row.id };
      await repo.addCredits(row.id, { used, released }, tx);
      if (used > 0) await ledger.capture({ userId: row.userId, type: row.creditType, amount: used, reference, tx });
      if (released > 0)
        await ledger.release({ userId: row.userId, type: row.creditType, amount: released, reference, tx });
      return { status: campaign.status, submitted };
    });
    inflight.settled(result.submitted.arrived);
    return { status: result.status, followUps: result.submitted.followUps };
  }

  return { settle };
}
