import crypto from 'node:crypto';
import { costCentavos, type TransferableCreditType, WHATSAPP_MIN_REAIS } from '@ecoa/shared';
import { balanceOf, type LedgerCore, type LedgerCoreDeps, ledgerErrors, type OperationOptions } from './ledger.core.ts';
import type { BalanceAmounts } from './ledger.repository.ts';
import type { LedgerEntryRow } from './ledger.schema.ts';

export type TransferResult = {
  transferId: string;
  type: TransferableCreditType;
  quantity: number;
  unitPrice: number;
  costCentavos: number;
  money: BalanceAmounts;
  credits: BalanceAmounts;
  entries: LedgerEntryRow[];
  replayed: boolean;
};

/**
 * Money → credits (`POST /api/v1/credits/transfer`, ADR 002 "Rules of the transfer"). Part of
 * the ledger service (`createLedgerService` spreads it in).
 */
export function createTransferOperations(deps: LedgerCoreDeps & { core: LedgerCore }) {
  const { clock, core } = deps;
  const { operate } = core;

  return {
    /**
     * Turns money into credits at the user's unit price, atomically: the money balance is
     * locked, the rules checked, money out and credits in with two entries, or nothing.
     */
    async transfer(
      input: OperationOptions & { userId: string; type: TransferableCreditType; quantity: number },
    ): Promise<TransferResult> {
      const { userId, type, quantity } = input;
      if (!Number.isSafeInteger(quantity) || quantity <= 0) throw ledgerErrors.invalidQuantity();
      return operate<TransferResult>({
        userId,
        key: input.idempotencyKey,
        entryCount: 2,
        tx: input.tx,
        replay: (entries) => {
          const out = entries.find((e) => e.kind === 'TRANSFER_OUT');
          const into = entries.find((e) => e.kind === 'TRANSFER_IN');
          const sameTransfer =
            out &&
            into &&
            into.type === type &&
            into.amount === quantity &&
            out.actorUserId === (input.actorUserId ?? null);
          if (!sameTransfer) throw ledgerErrors.keyReused();
          const meta = (out.metadata ?? {}) as { unitPrice?: number };
          return {
            transferId: out.referenceId ?? '',
            type,
            quantity,
            unitPrice: meta.unitPrice ?? 0,
            costCentavos: -out.amount,
            money: balanceOf(out),
            credits: balanceOf(into),
            entries: [out, into],
            replayed: true,
          };
        },
        run: async (repo, [outKey, inKey]) => {
          const prices = await repo.getUnitPrices(userId);
          if (!prices) throw ledgerErrors.userNotFound();
          const unitPrice = prices[type];
          if (!unitPrice) throw ledgerErrors.priceNotConfigured(type);
          const cost = costCentavos(quantity, unitPrice);
          // Spec section 5: WhatsApp needs "amount plus money balance" ≥ 3000, where amount is the
          // quantity asked for and the balance is in reais; in centavos: q × 100 + balance ≥ 300000.
          const whatsappFloor = type === 'WHATSAPP' ? WHATSAPP_MIN_REAIS * 100 - quantity * 100 : 0;
          const transferId = crypto.randomUUID();
          const shared = {
            referenceType: 'transfer',
            referenceId: transferId,
            actorUserId: input.actorUserId ?? null,
            reason: input.reason ?? null,
            metadata: { creditType: type, quantity, unitPrice, costCentavos: cost },
          };
          const entries = await repo.transfer({
            userId,
            type,
            quantity,
            cost,
            requiredAvailable: Math.max(cost, whatsappFloor),
            out: { ...shared, idempotencyKey: outKey ?? null },
            in: { ...shared, idempotencyKey: inKey ?? null },
            now: clock.now(),
          });
          if (!entries) {
            // Nothing was written; say why (in the spec's order: the WhatsApp minimum first).
            const money = await repo.getBalance(userId, 'BALANCE');
            if (money.available < whatsappFloor) throw ledgerErrors.whatsappMinimum();
            throw ledgerErrors.invalidQuantity();
          }
          const [out, into] = [
            entries.find((e) => e.kind === 'TRANSFER_OUT')!,
            entries.find((e) => e.kind === 'TRANSFER_IN')!,
          ];
          return {
            transferId,
            type,
            quantity,
            unitPrice,
            costCentavos: cost,
            money: balanceOf(out),
            credits: balanceOf(into),
            entries: [out, into],
            replayed: false,
          };
        },
      });
    },
  };
}
