import type { TransferableCreditType } from '@ecoa/shared';
import { type DbOrTx, runPrepared } from '../../platform/db/client.ts';
import { fromRawEntry, type RawEntry } from './ledger.rows.ts';
import type { LedgerEntryRow } from './ledger.schema.ts';

/** The users column holding each credit type's unit price (ten-thousandths of a real). */
export const PRICE_COLUMN_OF: Record<TransferableCreditType, string> = {
  SMSSHORT: 'price_sms_short',
  SMSFLASH: 'price_sms_flash',
  WHATSAPP: 'price_whatsapp',
  URA: 'price_ura',
  URAINTEGRATION: 'price_ura_integration',
  RCS: 'price_rcs',
  ENRICHED: 'price_enriched',
};

const priceOfType = `case $2::text ${Object.entries(PRICE_COLUMN_OF)
  .map(([type, column]) => `when '${type}' then u.${column}`)
  .join(' ')} end`;

/**
 * A whole transfer in ONE statement, so it is atomic on its own (no BEGIN/COMMIT round trips)
 * and prepared once per connection:
 * - `existing`: the entries of the idempotency keys ($4, $5; NULL without a key). If any exist,
 *   nothing is written and they come back flagged `replayed` (the service checks they are the
 *   same transfer).
 * - `c`: the user's unit price for the type and the cost, ceil(quantity × price / 100), in exact
 *   `numeric` (the same rule as `costCentavos` in @ecoa/shared; a test holds them equal). A
 *   price of 0 (not configured) or a missing user leaves `c` empty: nothing is written.
 * - `money`: takes the cost only if the money balance holds max(cost, $3 = the WhatsApp floor).
 *   PostgreSQL re-checks this WHERE on the newest row version after waiting for a concurrent
 *   writer, so parallel transfers never overdraw; the CHECK is the backstop. The cost stays
 *   `numeric` until it has passed that test, so a huge quantity is refused, not an overflow.
 * - `credits` and `written` (TRANSFER_OUT, TRANSFER_IN) come only from `money`'s row: all or nothing.
 * Lock order: the money row, then the credit row (the same as every operation): no deadlocks.
 */
const TRANSFER_SQL = `
with p as (
  select ${priceOfType} as price from users u where u.id = $1::uuid
), existing as (
  select * from ledger_entries where user_id = $1::uuid and idempotency_key in ($4::text, $5::text)
), c as (
  select price, ceil($6::bigint::numeric * price / 100) as cost from p
  where price > 0 and not exists (select 1 from existing)
), money as (
  update credit_balances set available = available - (select cost from c)::bigint, updated_at = $7::timestamptz
  where user_id = $1::uuid and type = 'BALANCE'
    and available >= (select greatest(cost, $3::numeric) from c)
  returning available, reserved, (select price from c) as price, (select cost from c)::bigint as cost
), credits as (
  insert into credit_balances (user_id, type, available, reserved, updated_at)
  select $1::uuid, $2::text, $6::bigint, 0, $7::timestamptz from money
  on conflict (user_id, type) do update set
    available = credit_balances.available + excluded.available,
    updated_at = excluded.updated_at
  returning available, reserved
), meta as (
  select jsonb_build_object('creditType', $2::text, 'quantity', $6::bigint, 'unitPrice', price,
    'costCentavos', cost) as metadata from money
), written as (
  insert into ledger_entries (user_id, type, kind, amount, balance_after, reserved_delta, reserved_after,
    reference_type, reference_id, actor_user_id, reason, idempotency_key, metadata, created_at)
  select $1::uuid, 'BALANCE', 'TRANSFER_OUT', -money.cost, money.available, 0, money.reserved,
    'transfer', $8::text, $9::uuid, $10::text, $4::text, meta.metadata, $7::timestamptz from money, meta
  union all
  select $1::uuid, $2::text, 'TRANSFER_IN', $6::bigint, credits.available, 0, credits.reserved,
    'transfer', $8::text, $9::uuid, $10::text, $5::text, meta.metadata, $7::timestamptz from credits, meta
  returning *
)
select written.*, false as replayed from written
union all
select existing.*, true as replayed from existing`;

export type TransferInput = {
  userId: string;
  type: TransferableCreditType;
  quantity: number;
  /** The money balance must hold at least this much besides the cost (the WhatsApp minimum); else 0. */
  floorCentavos: number;
  /** The keys of TRANSFER_OUT and TRANSFER_IN (null without an idempotency key). */
  keys: [string | null, string | null];
  transferId: string;
  actorUserId: string | null;
  reason: string | null;
  now: Date;
};

/**
 * `written`: the two new entries (TRANSFER_OUT first). `existing`: what the idempotency keys
 * already held (then nothing was written). Both empty: nothing qualified (no user, no price, not
 * enough money); the service reads why.
 */
export type TransferOutcome = { written: LedgerEntryRow[]; existing: LedgerEntryRow[] };

export function transferQueries(db: DbOrTx) {
  return {
    /** The transfer's one statement (see TRANSFER_SQL). */
    async transfer(input: TransferInput): Promise<TransferOutcome> {
      const { name, text, params } = transferStatement;
      const rows = await runPrepared<RawEntry & { replayed: boolean }>(db, name, text, params(input));
      // Stryker disable next-line ArrowFunction,ArithmeticOperator: equivalent, the rows already come in id order (RETURNING follows the insert's order; the keys' index puts key before key#1): sorting only says so
      const byId = (a: LedgerEntryRow, b: LedgerEntryRow) => a.id - b.id;
      return {
        // Stryker disable next-line MethodExpression: equivalent, unsorted the same order (above); unfiltered, the same rows: when a key held entries nothing was written, and the service reads `existing` first
        written: rows
          .filter((r) => !r.replayed)
          .map(fromRawEntry)
          .sort(byId),
        // Stryker disable next-line MethodExpression: equivalent, unsorted the same order (above)
        existing: rows
          .filter((r) => r.replayed)
          .map(fromRawEntry)
          .sort(byId),
      };
    },
  };
}

/** The statement as sent (the bench runs it bare, on the raw driver, as its baseline). */
export const transferStatement = {
  /** Change the name with the text: a connection keeps a prepared statement for its whole life. */
  name: 'ledger_transfer_v1',
  text: TRANSFER_SQL,
  params: (input: TransferInput): unknown[] => [
    input.userId,
    input.type,
    input.floorCentavos,
    input.keys[0],
    input.keys[1],
    input.quantity,
    input.now.toISOString(),
    input.transferId,
    input.actorUserId,
    input.reason,
  ],
};
