import {
  type AdminAdjustmentInput,
  type AdminPaymentInput,
  adminAdjustmentSchema,
  adminPaymentSchema,
  CREDIT_TYPES,
  MANUAL_PAYMENT_METHODS,
} from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Card,
  Group,
  NumberInput,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { useSubmissionKey } from '../../platform/idempotency';
import { notify } from '../../platform/notify';
import { FormSegmented } from '../../ui/FormFields';
import { StatCard } from '../../ui/StatCard';
import { adminCreditsApi, formatMoney, LedgerTable, PaymentsTable } from '../credits';
import { creditsKeys } from '../credits/queryKeys';

const PAGE_SIZE = 10;

/**
 * An administrator's view of one user's money, for the user drawer: balances, record a MANUAL or
 * PIX payment (credited at once), adjust any credit type with a reason, the ledger and payments.
 */
export function AdminUserCredits({ userId, onMoneyChanged }: { userId: string; onMoneyChanged?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [paymentsPage, setPaymentsPage] = useState(1);
  const [ledgerPage, setLedgerPage] = useState(1);
  const balance = useQuery({
    queryKey: creditsKeys.adminUserBalance(userId),
    queryFn: () => adminCreditsApi.balance(userId),
  });
  const payments = useQuery({
    queryKey: creditsKeys.adminUserPayments(userId, paymentsPage),
    queryFn: () => adminCreditsApi.payments(userId, paymentsPage, PAGE_SIZE),
  });
  const ledger = useQuery({
    queryKey: creditsKeys.adminUserLedger(userId, ledgerPage),
    queryFn: () => adminCreditsApi.ledger(userId, ledgerPage, PAGE_SIZE),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: creditsKeys.adminUserMoney(userId) });
  const pages = (total = 0) => Math.max(1, Math.ceil(total / PAGE_SIZE));

  const paymentForm = useForm<AdminPaymentInput>({
    resolver: zodResolver(adminPaymentSchema),
    defaultValues: { method: 'PIX', reason: '' },
  });
  // One Idempotency-Key per submission: resubmitting after an error cannot record it twice.
  const paymentKey = useSubmissionKey();
  const record = useMutation({
    mutationFn: ({ input, key }: { input: AdminPaymentInput; key: string }) =>
      adminCreditsApi.recordPayment(userId, input, key),
    onSuccess: async () => {
      paymentKey.done();
      notify.success(t('credits.admin.paymentRecorded'));
      paymentForm.reset({ method: 'PIX', reason: '' });
      await refresh();
      onMoneyChanged?.();
    },
    onError: (err) => notify.error(errorText(err, t)),
  });

  const adjustForm = useForm<AdminAdjustmentInput>({
    resolver: zodResolver(adminAdjustmentSchema),
    defaultValues: { reason: '' },
  });
  const adjustKey = useSubmissionKey();
  const adjust = useMutation({
    mutationFn: ({ input, key }: { input: AdminAdjustmentInput; key: string }) =>
      adminCreditsApi.adjust(userId, input, key),
    onSuccess: async () => {
      adjustKey.done();
      notify.success(t('credits.admin.adjusted'));
      adjustForm.reset({ reason: '' });
      await refresh();
      onMoneyChanged?.();
    },
    onError: (err) => adjustForm.setError('amount', { message: errorText(err, t) }),
  });

  return (
    <Stack gap="md" data-testid="admin-user-credits">
      <Title order={4}>{t('credits.admin.title')}</Title>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        {CREDIT_TYPES.map((type) => {
          const b = balance.data?.credits[type];
          return (
            <StatCard
              key={type}
              label={t(`credits.types.${type}`)}
              labelSize="xs"
              value={b ? (type === 'BALANCE' ? formatMoney(b.available) : b.available) : '—'}
              padding="xs"
              data-testid={`admin-balance-${type}`}
            >
              {!!b?.reserved && (
                <Text size="xs" c="dimmed">
                  {t('credits.reserved')}: {b.reserved}
                </Text>
              )}
            </StatCard>
          );
        })}
      </SimpleGrid>

      <Card withBorder radius="md" padding="md">
        <form
          onSubmit={paymentForm.handleSubmit((input) =>
            record.mutate({ input, key: paymentKey.keyFor({ userId, ...input }) }),
          )}
          noValidate
        >
          <Stack gap="sm">
            <Text fw={600}>{t('credits.admin.recordPayment')}</Text>
            <Controller
              control={paymentForm.control}
              name="amount"
              render={({ field, fieldState }) => (
                <NumberInput
                  label={t('credits.admin.amountReais')}
                  data-testid="admin-payment-amount"
                  decimalScale={2}
                  decimalSeparator=","
                  thousandSeparator="."
                  allowNegative
                  value={field.value ?? ''}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                  error={fieldState.error?.message}
                />
              )}
            />
            <FormSegmented
              control={paymentForm.control}
              name="method"
              data={MANUAL_PAYMENT_METHODS.map((m) => ({ value: m, label: t(`credits.methods.${m}`) }))}
            />
            <TextInput
              label={t('credits.admin.reason')}
              data-testid="admin-payment-reason"
              {...paymentForm.register('reason')}
              error={paymentForm.formState.errors.reason?.message}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={record.isPending} data-testid="admin-payment-submit">
                {t('credits.admin.recordSave')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>

      <Card withBorder radius="md" padding="md">
        <form
          onSubmit={adjustForm.handleSubmit((input) =>
            adjust.mutate({ input, key: adjustKey.keyFor({ userId, ...input }) }),
          )}
          noValidate
        >
          <Stack gap="sm">
            <Text fw={600}>{t('credits.admin.adjust')}</Text>
            <Controller
              control={adjustForm.control}
              name="type"
              render={({ field, fieldState }) => (
                <Select
                  label={t('credits.admin.adjustType')}
                  data-testid="admin-adjust-type"
                  data={CREDIT_TYPES.map((type) => ({ value: type, label: t(`credits.types.${type}`) }))}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v ?? undefined)}
                  error={fieldState.error?.message}
                />
              )}
            />
            <Controller
              control={adjustForm.control}
              name="amount"
              render={({ field, fieldState }) => (
                <NumberInput
                  label={t('credits.admin.adjustAmount')}
                  description={t('credits.admin.adjustAmountHint')}
                  data-testid="admin-adjust-amount"
                  decimalSeparator=","
                  thousandSeparator="."
                  value={field.value ?? ''}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                  error={fieldState.error?.message}
                />
              )}
            />
            <TextInput
              label={t('credits.admin.reason')}
              data-testid="admin-adjust-reason"
              {...adjustForm.register('reason')}
              error={adjustForm.formState.errors.reason?.message}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={adjust.isPending} data-testid="admin-adjust-submit">
                {t('credits.admin.adjustSave')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>

      <Text fw={600}>{t('credits.payments')}</Text>
      <PaymentsTable items={payments.data?.items} />
      {pages(payments.data?.total) > 1 && (
        <Pagination total={pages(payments.data?.total)} value={paymentsPage} onChange={setPaymentsPage} />
      )}
      <Text fw={600}>{t('credits.history')}</Text>
      <LedgerTable items={ledger.data?.items} showReason />
      {pages(ledger.data?.total) > 1 && (
        <Pagination total={pages(ledger.data?.total)} value={ledgerPage} onChange={setLedgerPage} />
      )}
    </Stack>
  );
}
