import { CREDIT_TYPES } from '@ecoa/shared';
import { Button, Card, Pagination, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../ui/PageHeader';
import { StatCard } from '../../ui/StatCard';
import { BalanceCard } from './BalanceCard';
import { useCredits } from './CreditsProvider';
import { creditsApi } from './creditsApi';
import { LedgerTable, PaymentsTable } from './MoneyTables';
import { useAccountBalance } from './money';
import { creditsKeys } from './queryKeys';
import { TransferForm } from './TransferForm';

const PAGE_SIZE = 10;

/** A card of one of the user's money tables, with its pages when there is more than one. */
function PagedCard(props: {
  title: string;
  total: number | undefined;
  page: number;
  onPage: (page: number) => void;
  children: ReactNode;
}) {
  const pages = Math.max(1, Math.ceil((props.total ?? 0) / PAGE_SIZE));
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={4} mb="md">
        {props.title}
      </Title>
      {props.children}
      {pages > 1 && <Pagination mt="md" total={pages} value={props.page} onChange={props.onPage} />}
    </Card>
  );
}

/**
 * Shopping (`/shopping`): the balance card, balances per credit type, the transfer form, the
 * user's payments with a status badge, and the ledger history.
 */
export function ShoppingPage() {
  const { t } = useTranslation();
  const { openBuyCredits } = useCredits();
  const [paymentsPage, setPaymentsPage] = useState(1);
  const [ledgerPage, setLedgerPage] = useState(1);
  const { balance, money } = useAccountBalance();
  const payments = useQuery({
    queryKey: creditsKeys.paymentsPage(paymentsPage),
    queryFn: () => creditsApi.payments(paymentsPage, PAGE_SIZE),
  });
  const ledger = useQuery({
    queryKey: creditsKeys.ledgerPage(ledgerPage),
    queryFn: () => creditsApi.ledger(ledgerPage, PAGE_SIZE),
  });

  return (
    <Stack gap="lg" data-testid="shopping-page">
      <PageHeader
        title={t('credits.shoppingTitle')}
        actions={
          <Button onClick={() => openBuyCredits('buy')} data-testid="shopping-buy">
            {t('credits.buyCredits')}
          </Button>
        }
      />
      <BalanceCard money={money} onBuy={() => openBuyCredits('buy')} />

      <Card withBorder radius="lg" padding="lg">
        <Title order={4} mb="md">
          {t('credits.balances')}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          {CREDIT_TYPES.filter((type) => type !== 'BALANCE').map((type) => {
            const b = balance.data?.credits[type];
            return (
              <StatCard
                key={type}
                label={t(`credits.types.${type}`)}
                value={b ? b.available.toLocaleString('pt-BR') : '—'}
                fz={24}
                valueTestId={`credit-available-${type}`}
                data-testid={`credit-balance-${type}`}
              >
                {!!b?.reserved && (
                  <Text size="xs" c="dimmed">
                    {t('credits.reserved')}: {b.reserved.toLocaleString('pt-BR')}
                  </Text>
                )}
              </StatCard>
            );
          })}
        </SimpleGrid>
      </Card>

      <Card withBorder radius="lg" padding="lg">
        <Title order={4} mb="md">
          {t('credits.tabTransfer')}
        </Title>
        <TransferForm />
      </Card>

      <PagedCard
        title={t('credits.payments')}
        total={payments.data?.total}
        page={paymentsPage}
        onPage={setPaymentsPage}
      >
        <PaymentsTable items={payments.data?.items} />
      </PagedCard>

      <PagedCard title={t('credits.history')} total={ledger.data?.total} page={ledgerPage} onPage={setLedgerPage}>
        <LedgerTable items={ledger.data?.items} />
      </PagedCard>
    </Stack>
  );
}
