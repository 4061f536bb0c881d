import type { CreditType, LedgerEntryKind } from '@ecoa/shared';
import { dateOf } from '../../platform/db/rows.ts';
import type { LedgerEntryRow } from './ledger.schema.ts';

/** A balance row's two amounts, in centavos or credits. */
export type BalanceAmounts = { available: number; reserved: number };

/** A ledger_entries row as raw SQL returns it (snake_case; int8 as number, string or bigint by driver). */
export type RawEntry = Record<string, unknown>;

export function fromRawEntry(r: RawEntry): LedgerEntryRow {
  const n = (v: unknown) => Number(v);
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, both drivers (node-postgres, PGlite) parse jsonb into an object; a string is for a driver that would not
  const metadata = typeof r.metadata === 'string' ? JSON.parse(r.metadata) : (r.metadata ?? null);
  return {
    id: n(r.id),
    userId: r.user_id as string,
    type: r.type as CreditType,
    kind: r.kind as LedgerEntryKind,
    amount: n(r.amount),
    balanceAfter: n(r.balance_after),
    reservedDelta: n(r.reserved_delta),
    reservedAfter: n(r.reserved_after),
    referenceType: (r.reference_type as string | null) ?? null,
    referenceId: (r.reference_id as string | null) ?? null,
    actorUserId: (r.actor_user_id as string | null) ?? null,
    reason: (r.reason as string | null) ?? null,
    idempotencyKey: (r.idempotency_key as string | null) ?? null,
    metadata,
    createdAt: dateOf(r.created_at as Date | string),
  };
}

/** Raw rows come back with bigint columns as numbers (node-postgres parser) or strings/bigints (PGlite). */
export function normalise(row: { available: unknown; reserved: unknown }): BalanceAmounts {
  return { available: Number(row.available), reserved: Number(row.reserved) };
}
