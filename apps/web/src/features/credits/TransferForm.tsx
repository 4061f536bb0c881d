import { formatBRL, formatPriceBRL, type TransferableCreditType } from '@ecoa/shared';
import { Button, Group, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../platform/api';
import { useSubmissionKey } from '../../platform/idempotency';
import { notify } from '../auth/notify';
import { useSession } from '../auth/SessionProvider';
import { creditsApi, DASHBOARD_BALANCE_KEY, LEDGER_KEY } from './creditsApi';
import { checkTransfer, TRANSFER_TYPES, unitPrice } from './purchase';

const ERROR_KEYS: Record<string, string> = {
  INVALID_QUANTITY: 'credits.invalidQuantity',
  WHATSAPP_MINIMUM: 'credits.whatsappMinimum',
  PRICE_NOT_CONFIGURED: 'credits.priceNotConfigured',
};

/**
 * Money → credits (`POST /api/v1/credits/transfer`), one row per credit type with its unit
 * price, the cost as typed, and the row's error under it. The same rules as the server run as
 * you type; the server's answer (a failure the spec leaves unhandled) shows under the row too.
 * On success: the spec's toast, the user re-synced, the dashboard balance refreshed, `onDone`.
 */
export function TransferForm({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const { user, refreshUser } = useSession();
  const queryClient = useQueryClient();
  const [quantities, setQuantities] = useState<Partial<Record<TransferableCreditType, number>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<TransferableCreditType, string>>>({});
  const money = user?.balance.money ?? 0;

  // One Idempotency-Key per submission: converting again after an error (the answer may have
  // been lost after the server applied it) cannot charge the balance twice.
  const submissionKey = useSubmissionKey();
  const transfer = useMutation({
    mutationFn: ({ input, key }: { input: { type: TransferableCreditType; amount: number }; key: string }) =>
      creditsApi.transfer(input, key),
    onSuccess: async (_result, { input }) => {
      submissionKey.done();
      notify.success(t('credits.transferSuccess'));
      setQuantities((q) => ({ ...q, [input.type]: undefined }));
      await Promise.all([
        refreshUser(),
        queryClient.invalidateQueries({ queryKey: DASHBOARD_BALANCE_KEY }),
        queryClient.invalidateQueries({ queryKey: LEDGER_KEY }),
      ]);
      onDone?.();
    },
    onError: (err, { input }) => {
      const message = isApiError(err)
        ? err.code && ERROR_KEYS[err.code]
          ? t(ERROR_KEYS[err.code]!)
          : err.message
        : String(err);
      setServerErrors((e) => ({ ...e, [input.type]: message }));
    },
  });

  return (
    <Stack gap="sm" data-testid="transfer-form">
      <Text size="sm" c="dimmed">
        {t('credits.transferIntro')}
      </Text>
      <Table verticalSpacing="xs" striped={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('credits.type')}</Table.Th>
            <Table.Th>{t('credits.unitPrice')}</Table.Th>
            <Table.Th>{t('credits.quantity')}</Table.Th>
            <Table.Th>{t('credits.cost')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {TRANSFER_TYPES.map((type) => {
            const price = unitPrice(user?.priceTable, type);
            const quantity = quantities[type];
            const check = quantity ? checkTransfer(type, quantity, price, money) : null;
            const error =
              serverErrors[type] ?? (check && !check.ok ? t(`credits.${check.error}`) : undefined) ?? undefined;
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
                  <NumberInput
                    aria-label={`${t('credits.quantity')} ${t(`credits.types.${type}`)}`}
                    data-testid={`transfer-quantity-${type}`}
                    value={quantity ?? ''}
                    min={0}
                    allowDecimal={false}
                    allowNegative={false}
                    thousandSeparator="."
                    decimalSeparator=","
                    hideControls
                    w={120}
                    error={error}
                    onChange={(value) => {
                      setServerErrors((e) => ({ ...e, [type]: undefined }));
                      setQuantities((q) => ({ ...q, [type]: typeof value === 'number' ? value : undefined }));
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{check ? formatBRL(check.costCentavos) : '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    <Button
                      size="xs"
                      disabled={!check?.ok}
                      loading={transfer.isPending && transfer.variables?.input.type === type}
                      data-testid={`transfer-submit-${type}`}
                      onClick={() => {
                        if (!quantity) return;
                        const input = { type, amount: quantity };
                        transfer.mutate({ input, key: submissionKey.keyFor(input) });
                      }}
                    >
                      {t('credits.transferButton')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
