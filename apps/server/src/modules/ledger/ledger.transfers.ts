import crypto from 'node:crypto';
import { type TransferableCreditType, WHATSAPP_MIN_REAIS } from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';
import { balanceOf, type LedgerCore, type LedgerCoreDeps, type OperationOptions } from './ledger.core.ts';
import type { BalanceAmounts, LedgerRepository } from './ledger.repository.ts';
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

  return {
    /**
     * Turns money into credits at the user's unit price, atomically, in one statement
     * (`ledger.transfers.repository.ts`): the rules are checked against the locked money row,
     * then money out and credits in with two entries, or nothing.
     */
    async transfer(
      input: OperationOptions & { userId: string; type: TransferableCreditType; quantity: number },
    ): Promise<TransferResult> {
      const { userId, type, quantity } = input;
      if (!Number.isSafeInteger(quantity) || quantity <= 0) throw new AppError('INVALID_QUANTITY');
      return core.operateInOneStatement<TransferResult>({
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
          if (!sameTransfer) throw new AppError('IDEMPOTENCY_KEY_REUSED');
          const meta = (out.metadata ?? {}) as { unitPrice?: number };
          return {
            // Stryker disable next-line StringLiteral: equivalent, a TRANSFER_OUT entry always has its transfer's id as reference
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
          // Spec section 5: WhatsApp needs "amount plus money balance" ≥ 3000, where amount is the
          // quantity asked for and the balance is in reais; in centavos: q × 100 + balance ≥ 300000.
          const whatsappFloor = type === 'WHATSAPP' ? WHATSAPP_MIN_REAIS * 100 - quantity * 100 : 0;
          const transferId = crypto.randomUUID();
          const { written, existing } = await repo.transfer({
            userId,
            type,
            quantity,
            floorCentavos: Math.max(whatsappFloor, 0),
            keys: [outKey ?? null, inKey ?? null],
            transferId,
            actorUserId: input.actorUserId ?? null,
            reason: input.reason ?? null,
            now: clock.now(),
          });
          if (existing.length > 0) return { existing };
          // Stryker disable next-line ConditionalExpression: equivalent, `written` is in id order, TRANSFER_OUT first, so the first entry is it
          const out = written.find((e) => e.kind === 'TRANSFER_OUT');
          const into = written.find((e) => e.kind === 'TRANSFER_IN');
          // Stryker disable next-line LogicalOperator: equivalent, the statement writes both entries or neither, so `&&` says the same
          if (!out || !into) throw await whyNot(repo, userId, type, whatsappFloor);
          const meta = out.metadata as { unitPrice: number };
          return {
            done: {
              transferId,
              type,
              quantity,
              unitPrice: Number(meta.unitPrice),
              costCentavos: -out.amount,
              money: balanceOf(out),
              credits: balanceOf(into),
              entries: [out, into],
              replayed: false,
            },
          };
        },
      });
    },
  };
}

/**
 * Nothing was written: says why, in the spec's order (no user, no price, the WhatsApp minimum,
 * then "Quantidade inválida"). Read after the statement, so only a failed transfer pays for it.
 */
async function whyNot(repo: LedgerRepository, userId: string, type: TransferableCreditType, whatsappFloor: number) {
  const prices = await repo.getUnitPrices(userId);
  if (!prices) return new AppError('USER_NOT_FOUND');
  if (!prices[type]) return new AppError('PRICE_NOT_CONFIGURED', { type: type });
  const money = await repo.getBalance(userId, 'BALANCE');
  if (money.available < whatsappFloor) return new AppError('WHATSAPP_MINIMUM');
  return new AppError('INVALID_QUANTITY');
}
