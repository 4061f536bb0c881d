/**
 * The ledger as the API shows it: each answer of the ledger's routes in its shared JSON shape.
 * The ledger service works in centavos and whole units for the other modules; this is the one
 * place its rows become reais, ISO dates and the schemas' field names, so the routes only move
 * requests and answers.
 */
import {
  CREDIT_TYPES,
  type CreditType,
  centavosToReais,
  type DashboardBalance,
  type LedgerEntryDto,
  type PaymentDto,
  tenThousandthsToReais,
} from '@ecoa/shared';
import type { BalanceAmounts } from './ledger.repository.ts';
import type { LedgerEntryRow, PaymentRow } from './ledger.schema.ts';
import type { Balances, LedgerService } from './ledger.service.ts';

/** An amount of `type` as the API shows it: reais for BALANCE, units for credit types. */
const show = (type: CreditType, amount: number) => (type === 'BALANCE' ? centavosToReais(amount) : amount);
const showBalance = (type: CreditType, b: BalanceAmounts) => ({
  available: show(type, b.available),
  reserved: show(type, b.reserved),
});

export function toDashboardBalance(balances: Balances): DashboardBalance {
  return {
    money: centavosToReais(balances.BALANCE.available),
    credits: Object.fromEntries(
      CREDIT_TYPES.map((t) => [t, showBalance(t, balances[t])]),
    ) as DashboardBalance['credits'],
  };
}

export function toEntryDto(e: LedgerEntryRow): LedgerEntryDto {
  return {
    id: e.id,
    type: e.type,
    kind: e.kind,
    amount: show(e.type, e.amount),
    balanceAfter: show(e.type, e.balanceAfter),
    reservedDelta: show(e.type, e.reservedDelta),
    reservedAfter: show(e.type, e.reservedAfter),
    referenceType: e.referenceType,
    referenceId: e.referenceId,
    actorUserId: e.actorUserId,
    reason: e.reason,
    createdAt: e.createdAt.toISOString(),
  };
}

export function toPaymentDto(p: PaymentRow): PaymentDto {
  return {
    id: p.id,
    amount: centavosToReais(p.amountCentavos),
    method: p.method,
    provider: p.provider,
    status: p.status,
    reason: p.reason,
    createdBy: p.createdBy,
    refunded: centavosToReais(p.refundedCentavos),
    createdAt: p.createdAt.toISOString(),
    completedAt: p.completedAt ? p.completedAt.toISOString() : null,
  };
}

export function createLedgerApi(ledger: LedgerService) {
  return {
    async balance(userId: string): Promise<DashboardBalance> {
      return toDashboardBalance(await ledger.getBalances(userId));
    },

    /** A page of a user's ledger (the user's own, or an administrator's view). */
    async entriesPage(userId: string, query: Parameters<LedgerService['listEntries']>[1]) {
      const page = await ledger.listEntries(userId, query);
      return { ...page, items: page.items.map(toEntryDto) };
    },

    async paymentsPage(userId: string, query: Parameters<LedgerService['listPayments']>[1]) {
      const page = await ledger.listPayments(userId, query);
      return { ...page, items: page.items.map(toPaymentDto) };
    },

    async transfer(input: Parameters<LedgerService['transfer']>[0]) {
      const result = await ledger.transfer(input);
      return {
        transferId: result.transferId,
        type: result.type,
        amount: result.quantity,
        unitPrice: tenThousandthsToReais(result.unitPrice),
        cost: centavosToReais(result.costCentavos),
        money: centavosToReais(result.money.available),
        credits: result.credits,
      };
    },

    /** One of the user's own payments, as the card checkout's return polls it. */
    async paymentStatus(userId: string, paymentId: string) {
      const payment = await ledger.ownPayment(userId, paymentId);
      return { id: payment.id, status: payment.status, amount: centavosToReais(payment.amountCentavos) };
    },

    /** An administrator's payment, with the user's money after it; `replayed` is a retry's first result. */
    async recordManualPayment(input: Parameters<LedgerService['recordManualPayment']>[0]) {
      const result = await ledger.recordManualPayment(input);
      return {
        replayed: result.replayed,
        body: {
          payment: toPaymentDto(result.payment),
          entry: result.entry ? toEntryDto(result.entry) : null,
          money: centavosToReais(await ledger.getMoneyBalanceCentavos(input.userId)),
        },
      };
    },

    /** An administrator's adjustment and the balance it left; `replayed` is a retry's first result. */
    async adjust(input: Parameters<LedgerService['adjust']>[0]) {
      const result = await ledger.adjust(input);
      return {
        replayed: result.replayed,
        body: { entry: toEntryDto(result.entry), balance: showBalance(input.type, result.balance) },
      };
    },
  };
}
