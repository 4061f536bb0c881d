import type { Page, PaymentMethod } from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';
import {
  assertPositiveInteger,
  type LedgerCore,
  type LedgerCoreDeps,
  type OperationOptions,
  sameOperation,
} from './ledger.core.ts';
import type { LedgerRepository } from './ledger.repository.ts';
import type { LedgerEntryRow, PaymentRow } from './ledger.schema.ts';

export type PaymentResult = {
  payment: PaymentRow;
  entry: LedgerEntryRow | null;
  replayed: boolean;
};

/**
 * Money paid in: an administrator's MANUAL/PIX payments (credited at once) and card payments
 * (PENDING until the provider confirms them, then credited exactly once; refunds taken back).
 * Part of the ledger service (`createLedgerService` spreads these in).
 */
export function createPaymentOperations(deps: LedgerCoreDeps & { core: LedgerCore }) {
  const { clock, core } = deps;
  const { operate, entry } = core;

  const payments = {
    /**
     * An administrator records a MANUAL or PIX payment: the payment (SUCCEEDED) and its
     * PURCHASE entry are written together, so the money is credited at once, exactly once.
     */
    async recordManualPayment(
      input: OperationOptions & {
        userId: string;
        amountCentavos: number;
        method: Extract<PaymentMethod, 'MANUAL' | 'PIX'>;
        actorUserId: string;
        reason: string;
      },
    ): Promise<PaymentResult> {
      assertPositiveInteger(input.amountCentavos);
      return operate<PaymentResult>({
        userId: input.userId,
        key: input.idempotencyKey,
        entryCount: 1,
        tx: input.tx,
        replay: async (entries, repo) => {
          const e = sameOperation(entries[0], {
            type: 'BALANCE',
            kind: 'PURCHASE',
            amount: input.amountCentavos,
            actorUserId: input.actorUserId,
            reason: input.reason,
          });
          // An entry that names no payment has none to answer with (never looked up as '': no uuid).
          const payment = e.referenceId ? await repo.findPayment(e.referenceId) : null;
          if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
          if (payment.method !== input.method) throw new AppError('IDEMPOTENCY_KEY_REUSED');
          return { payment, entry: e, replayed: true };
        },
        run: async (repo, [key]) => {
          // Stryker disable next-line ConditionalExpression: equivalent when false, an unknown user's payment then fails on its foreign key, which recover answers USER_NOT_FOUND
          if (!(await repo.lockUserKey(input.userId))) throw new AppError('USER_NOT_FOUND');
          const now = clock.now();
          const payment = await repo.insertPayment({
            userId: input.userId,
            amountCentavos: input.amountCentavos,
            method: input.method,
            provider: 'MANUAL',
            status: 'SUCCEEDED',
            reason: input.reason,
            createdBy: input.actorUserId,
            createdAt: now,
            completedAt: now,
          });
          const e = await creditPurchase(
            repo,
            payment,
            payment.amountCentavos,
            key ?? `payment:${payment.id}`,
            input.actorUserId,
          );
          return { payment, entry: e, replayed: false };
        },
      });
    },

    /** A card payment waiting for the provider (the Stripe checkout creates it). */
    async createPendingPayment(input: {
      userId: string;
      amountCentavos: number;
      method: PaymentMethod;
      provider: 'STRIPE' | 'MANUAL';
      externalId?: string | null;
      reason?: string | null;
      successUrl?: string | null;
      cancelUrl?: string | null;
    }): Promise<PaymentRow> {
      assertPositiveInteger(input.amountCentavos);
      const now = clock.now();
      return deps.repo.insertPayment({
        userId: input.userId,
        amountCentavos: input.amountCentavos,
        method: input.method,
        provider: input.provider,
        status: 'PENDING',
        reason: input.reason ?? null,
        createdBy: input.userId,
        externalId: input.externalId ?? null,
        successUrl: input.successUrl ?? null,
        cancelUrl: input.cancelUrl ?? null,
        createdAt: now,
        completedAt: null,
      });
    },

    /** Records the provider's checkout (its id and the page the customer pays on). */
    async attachCheckout(
      paymentId: string,
      checkout: { externalId: string; checkoutUrl: string },
    ): Promise<PaymentRow> {
      return deps.repo.updatePayment(paymentId, { ...checkout, updatedAt: clock.now() });
    },

    /** Notes something about a payment without changing its status (e.g. a refused event). */
    async flagPayment(paymentId: string, flag: Record<string, unknown>): Promise<void> {
      await deps.repo.transaction(async (repo) => {
        const payment = await repo.lockPayment(paymentId);
        if (!payment) return;
        await repo.updatePayment(paymentId, {
          metadata: { ...(payment.metadata ?? {}), ...flag },
          updatedAt: clock.now(),
        });
      });
    },

    /** A payment by its provider checkout's id (Stripe: the Checkout Session). */
    findPaymentByExternalId(provider: 'STRIPE' | 'MANUAL', externalId: string) {
      return deps.repo.findPaymentByExternalId(provider, externalId);
    },

    findPaymentByExternalPaymentId(provider: 'STRIPE' | 'MANUAL', externalPaymentId: string) {
      return deps.repo.findPaymentByExternalPaymentId(provider, externalPaymentId);
    },

    /**
     * The provider refunded `totalRefundedCentavos` of a payment so far (cumulative, as Stripe
     * reports it; repeated or stale events change nothing). Card payments settle by amounts
     * (ADR 002, "Settling card payments by amounts"): the customer keeps exactly what was paid
     * minus what was refunded, whatever order the events arrive in.
     * - Not credited yet (the refund came before the success): only `refundedCentavos` moves;
     *   the success will credit what is not refunded. Refunded in full → REFUNDED.
     * - Credited: the new part is taken back from the money balance — never below zero: what
     *   cannot be taken is recorded as `refundShortfallCentavos` for the team to follow up.
     */
    async refundPayment(
      paymentId: string,
      totalRefundedCentavos: number,
    ): Promise<{ payment: PaymentRow; entry: LedgerEntryRow | null; shortfallCentavos: number; replayed: boolean }> {
      return deps.repo.transaction(async (repo) => {
        const payment = await repo.lockPayment(paymentId);
        if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
        const total = Math.min(totalRefundedCentavos, payment.amountCentavos);
        const delta = total - payment.refundedCentavos;
        if (delta <= 0) return { payment, entry: null, shortfallCentavos: 0, replayed: true };
        const now = clock.now();
        const fully = total >= payment.amountCentavos;
        if (!successApplied(payment)) {
          const updated = await repo.updatePayment(paymentId, {
            status: fully ? 'REFUNDED' : payment.status,
            refundedCentavos: total,
            updatedAt: now,
          });
          return { payment: updated, entry: null, shortfallCentavos: 0, replayed: false };
        }
        // What was credited is amount − refunded-before-credit ≥ every later delta, so the
        // refunds never take back more than the payment put in.
        // Stryker disable next-line ObjectLiteral: equivalent, a credited payment's user has a money row (the credit wrote it); a success that credited nothing was a full refund, and no later refund gets here
        const money = (await repo.lockBalance(payment.userId, 'BALANCE')) ?? { available: 0, reserved: 0 };
        const take = Math.min(delta, money.available);
        const shortfall = delta - take;
        let e: LedgerEntryRow | null = null;
        if (take > 0) {
          const after = await repo.applyDelta(payment.userId, 'BALANCE', -take, 0, now);
          [e = null] = await repo.insertEntries([
            entry({
              userId: payment.userId,
              type: 'BALANCE',
              kind: 'REFUND',
              amount: -take,
              balanceAfter: after!.available,
              reservedDelta: 0,
              reservedAfter: after!.reserved,
              reference: { type: 'payment', id: payment.id },
              reason: shortfall > 0 ? `Estorno parcial: faltaram ${shortfall} centavos de saldo` : 'Estorno',
              idempotencyKey: `refund:${payment.id}:${total}`,
              metadata: { refundedCentavos: total, shortfallCentavos: shortfall },
            }),
          ]);
        }
        const updated = await repo.updatePayment(paymentId, {
          status: fully ? 'REFUNDED' : payment.status,
          refundedCentavos: total,
          refundShortfallCentavos: payment.refundShortfallCentavos + shortfall,
          updatedAt: now,
        });
        return { payment: updated, entry: e, shortfallCentavos: shortfall, replayed: false };
      });
    },

    /**
     * The provider confirmed the payment: credits what was paid minus what was already refunded
     * (refunds can arrive first), exactly once: the payment row is locked, and the PURCHASE
     * entry's key is `payment:<id>`. A second call (a duplicate webhook) changes nothing and
     * answers `replayed: true`. Refunded in full before the success → REFUNDED, nothing
     * credited. A FAILED or CANCELED payment is credited too: a verified "paid" from the
     * provider is authoritative (the customer was charged), whatever we inferred before it.
     */
    async completePayment(
      paymentId: string,
      changes: {
        externalPaymentId?: string | null;
        /** The provider checkout's id, kept if the payment has none yet (storing it failed at creation). */
        externalId?: string;
      } = {},
    ): Promise<PaymentResult> {
      return deps.repo.transaction(async (repo) => {
        const payment = await repo.lockPayment(paymentId);
        if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
        if (successApplied(payment)) {
          const [e] = await repo.findEntriesByKeys(payment.userId, [`payment:${payment.id}`]);
          return { payment, entry: e ?? null, replayed: true };
        }
        const now = clock.now();
        const net = payment.amountCentavos - payment.refundedCentavos;
        const updated = await repo.updatePayment(paymentId, {
          status: net > 0 ? 'SUCCEEDED' : 'REFUNDED',
          // Also marks the success as applied: see successApplied.
          completedAt: now,
          updatedAt: now,
          ...(changes.externalPaymentId ? { externalPaymentId: changes.externalPaymentId } : {}),
          ...(changes.externalId && !payment.externalId ? { externalId: changes.externalId } : {}),
        });
        const e = net > 0 ? await creditPurchase(repo, updated, net, `payment:${updated.id}`, null) : null;
        return { payment: updated, entry: e, replayed: false };
      });
    },

    /** PENDING → FAILED or CANCELED; any other status is left as is (late or duplicate events). */
    async closePendingPayment(paymentId: string, status: 'FAILED' | 'CANCELED'): Promise<PaymentRow> {
      return deps.repo.transaction(async (repo) => {
        const payment = await repo.lockPayment(paymentId);
        if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
        if (payment.status !== 'PENDING') return payment;
        return repo.updatePayment(paymentId, { status, updatedAt: clock.now() });
      });
    },

    findPayment(paymentId: string): Promise<PaymentRow | null> {
      return deps.repo.findPayment(paymentId);
    },

    /** A payment of `userId`'s own; another user's is answered as missing (its id says nothing). */
    async ownPayment(userId: string, paymentId: string): Promise<PaymentRow> {
      const payment = await deps.repo.findPayment(paymentId);
      if (!payment || payment.userId !== userId) throw new AppError('PAYMENT_NOT_FOUND');
      return payment;
    },

    async listPayments(userId: string, options: { page: number; pageSize: number }): Promise<Page<PaymentRow>> {
      const { items, total } = await deps.repo.listPayments(userId, {
        limit: options.pageSize,
        offset: (options.page - 1) * options.pageSize,
      });
      return { items, total, page: options.page, pageSize: options.pageSize };
    },
  };

  /** The PURCHASE entry of a payment: `amount` is what it credits (its amount minus earlier refunds). */
  async function creditPurchase(
    repo: LedgerRepository,
    payment: PaymentRow,
    amount: number,
    key: string,
    actorUserId: string | null,
  ): Promise<LedgerEntryRow> {
    const after = await repo.applyDelta(payment.userId, 'BALANCE', amount, 0, clock.now());
    const [e] = await repo.insertEntries([
      entry({
        userId: payment.userId,
        type: 'BALANCE',
        kind: 'PURCHASE',
        amount,
        balanceAfter: after!.available,
        reservedDelta: 0,
        reservedAfter: after!.reserved,
        reference: { type: 'payment', id: payment.id },
        actorUserId,
        reason: payment.reason,
        idempotencyKey: key,
        metadata: {
          method: payment.method,
          provider: payment.provider,
          ...(amount < payment.amountCentavos ? { refundedBeforeCreditCentavos: payment.amountCentavos - amount } : {}),
        },
      }),
    ]);
    return e!;
  }

  return payments;
}

/**
 * Whether the provider's success was applied (what was not refunded credited, possibly
 * nothing): SUCCEEDED, or REFUNDED with `completedAt`. A payment refunded before its success
 * has neither, so the success still credits what is left.
 */
function successApplied(payment: PaymentRow): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent when `status === 'REFUNDED'` is true, only SUCCEEDED and REFUNDED payments get completedAt (closePendingPayment leaves it null)
  return payment.status === 'SUCCEEDED' || (payment.status === 'REFUNDED' && payment.completedAt !== null);
}
