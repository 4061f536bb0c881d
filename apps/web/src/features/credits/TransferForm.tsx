import {
  costCentavos,
  creditTransferRowSchema,
  formatBRL,
  formatPriceBRL,
  LEDGER_MESSAGES,
  reaisToCentavos,
  type TransferableCreditType,
} from '@ecoa/shared';
import { Button, Group, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../platform/api';
import { errorText, translateValidation } from '../../platform/errors';
import { useSubmissionKeys } from '../../platform/idempotency';
import { notify } from '../../platform/notify';
import { useSession } from '../../platform/SessionProvider';
import { DataTable } from '../../ui/DataTable';
import { creditsApi } from './creditsApi';
import { refreshMoney, useAccountBalance } from './money';
import { TRANSFER_TYPES, unitPrice } from './purchase';

type Quantities = Partial<Record<TransferableCreditType, number>>;
type Transfer = { input: { type: TransferableCreditType; amount: number }; key: string };

/** The row rules' refusals, in the words the row has always used (`credits.<rule>`). */
const RULE_KEYS = ['invalidQuantity', 'whatsappMinimum', 'priceNotConfigured'] as const;
function ruleText(t: TFunction, message: string | undefined): string | undefined {
  const rule = RULE_KEYS.find((key) => LEDGER_MESSAGES[key] === message);
  return rule ? t(`credits.${rule}`) : translateValidation(t, message);
}

/** A row's cost as typed, in centavos: 0 while the price is not configured or the quantity is not whole. */
function rowCost(quantity: number, price: number): number {
  if (!price || !Number.isSafeInteger(quantity) || quantity <= 0) return 0;
  try {
    return costCentavos(quantity, price);
  } catch {
    return 0; // beyond any balance: the row says "Quantidade inválida"
  }
}

/**
 * The server's refusals whose row texts differ from their code's (`errors.codes.*`): the
 * shorter price text, and cn's word for credits; any other by its code (`errorText`).
 */
const ERROR_KEYS: Record<string, string> = {
  WHATSAPP_MINIMUM: 'credits.whatsappMinimum',
  PRICE_NOT_CONFIGURED: 'credits.priceNotConfigured',
};

/**
 * Money → credits (`POST /api/v1/credits/transfer`), one row per credit type with its unit
 * price, the cost as typed, and the row's error under it. The ledger's rules for a row
 * (`creditTransferRowSchema`, for the user's prices and balance) run as you type; the server's answer (a failure the spec leaves unhandled) shows under the row too.
 * On success: the spec's toast, the money refreshed (`refreshMoney`), `onDone`. Rows convert
 * independently: each has its own submission key and its own in-flight state.
 */
/** The table's columns before the button: what, at what price, how many, for how much. */
const TRANSFER_COLUMNS = ['type', 'unitPrice', 'quantity', 'cost'] as const;

export function TransferForm({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const { money } = useAccountBalance();
  const queryClient = useQueryClient();
  // Each row's quantity; the server's refusal of a row is that row's error until it is edited.
  const form = useForm<Quantities>({ defaultValues: {} });
  const quantities = form.watch();
  const serverErrors = form.formState.errors;
  // The ledger's rules for a row, for the user's prices and balance: judged at render from the typed
  // quantity, so new prices or a new balance judge every typed row again with nothing to re-trigger.
  const balanceCentavos = reaisToCentavos(money) ?? 0;
  const priceTable = user?.priceTable;
  const rowRules = useMemo(
    () =>
      Object.fromEntries(
        TRANSFER_TYPES.map((type) => [
          type,
          creditTransferRowSchema(type, unitPrice(priceTable, type), balanceCentavos),
        ]),
      ) as Record<TransferableCreditType, ReturnType<typeof creditTransferRowSchema>>,
    [priceTable, balanceCentavos],
  );

  // One Idempotency-Key per submission, per row: converting again after an error (the answer may
  // have been lost after the server applied it) cannot charge the balance twice, even when
  // another row was converted meanwhile.
  const submissionKeys = useSubmissionKeys();
  // This form's transfers: the rows in flight are read from them (the mutation's own state
  // follows only its latest call).
  const mutationKey = ['credits-transfer', useId()];
  const transfer = useMutation({
    mutationKey,
    mutationFn: ({ input, key }: Transfer) => creditsApi.transfer(input, key),
    onSuccess: async (_result, { input }) => {
      submissionKeys.done(input.type);
      notify.success(t('credits.transferSuccess'));
      form.setValue(input.type, undefined);
      await refreshMoney(queryClient);
      onDone?.();
    },
    onError: (err, { input }) => {
      // The server's refusal by its code, never its (Portuguese) message text.
      const key = isApiError(err) && err.code ? ERROR_KEYS[err.code] : undefined;
      const message = key ? t(key) : errorText(err, t);
      form.setError(input.type, { type: 'server', message });
    },
  });
  const converting = new Set(
    useMutationState({
      filters: { mutationKey, status: 'pending' },
      select: (m) => (m.state.variables as Transfer).input.type,
    }),
  );

  return (
    <Stack gap="sm" data-testid="transfer-form">
      <Text size="sm" c="dimmed">
        {t('credits.transferIntro')}
      </Text>
      <DataTable
        columns={[...TRANSFER_COLUMNS.map((key) => ({ header: t(`credits.${key}`) })), {}]}
        rows={TRANSFER_TYPES}
        renderRow={(type) => {
          const price = unitPrice(user?.priceTable, type);
          const quantity = quantities[type];
          const serverError = serverErrors[type]?.message;
          const check = quantity ? rowRules[type].safeParse(quantity) : undefined;
          const error =
            serverError ?? (check?.success === false ? ruleText(t, check.error.issues[0]?.message) : undefined);
          return (
            <Table.Tr key={type} data-testid={`transfer-row-${type}`}>
              <Table.Td>
                <Text fw={600} size="sm">
                  {t(`credits.types.${type}`)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={price ? undefined : 'dimmed'}>
                  {price ? formatPriceBRL(price) : '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Controller
                  control={form.control}
                  name={type}
                  render={({ field }) => (
                    <NumberInput
                      aria-label={`${t('credits.quantity')} ${t(`credits.types.${type}`)}`}
                      data-testid={`transfer-quantity-${type}`}
                      value={field.value ?? ''}
                      min={0}
                      allowDecimal={false}
                      allowNegative={false}
                      thousandSeparator="."
                      decimalSeparator=","
                      hideControls
                      w={120}
                      error={error}
                      onBlur={field.onBlur}
                      onChange={(value) => {
                        form.clearErrors(type);
                        field.onChange(typeof value === 'number' ? value : undefined);
                      }}
                    />
                  )}
                />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{quantity ? formatBRL(rowCost(quantity, price)) : '—'}</Text>
              </Table.Td>
              <Table.Td>
                <Group justify="flex-end">
                  <Button
                    size="xs"
                    // A server's refusal or a lost answer: the same submission may be retried.
                    disabled={!quantity || (serverError === undefined && !check?.success)}
                    loading={converting.has(type)}
                    data-testid={`transfer-submit-${type}`}
                    onClick={() => {
                      if (!quantity) return;
                      const input = { type, amount: quantity };
                      transfer.mutate({ input, key: submissionKeys.keyFor(type, input) });
                    }}
                  >
                    {t('credits.transferButton')}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        }}
        verticalSpacing="xs"
        striped={false}
      />
    </Stack>
  );
}
