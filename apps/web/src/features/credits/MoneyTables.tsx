import { formatBRL, type LedgerEntryDto, type PaymentDto, type PaymentStatus, reaisToCentavos } from '@ecoa/shared';
import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const STATUS_COLOR: Record<PaymentStatus, string> = {
  SUCCEEDED: 'teal',
  PENDING: 'yellow',
  FAILED: 'red',
  CANCELED: 'gray',
  REFUNDED: 'grape',
};

export const formatMoney = (reais: number) => formatBRL(reaisToCentavos(reais) ?? 0);

export function formatDateTime(iso: string, language: string): string {
  const locale = language === 'cn' ? 'zh-CN' : language === 'en' ? 'en-US' : 'pt-BR';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}

/** A ledger entry's movement: money in BRL, credits as signed units (a capture shows what it consumed). */
export function entryAmount(e: LedgerEntryDto): string {
  if (e.type === 'BALANCE') return formatMoney(e.amount);
  const moved = e.amount !== 0 ? e.amount : -e.reservedDelta;
  return `${moved > 0 ? '+' : ''}${moved}`;
}

/** Payments: date, amount, method, provider and a status badge. */
export function PaymentsTable({ items }: { items: PaymentDto[] | undefined }) {
  const { t, i18n } = useTranslation();
  if (items && items.length === 0) return <Text c="dimmed">{t('credits.noPayments')}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table data-testid="payments-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('credits.date')}</Table.Th>
            <Table.Th>{t('credits.amount')}</Table.Th>
            <Table.Th>{t('credits.method')}</Table.Th>
            <Table.Th>{t('credits.provider')}</Table.Th>
            <Table.Th>{t('credits.status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items?.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>{formatDateTime(p.createdAt, i18n.language)}</Table.Td>
              <Table.Td>{formatMoney(p.amount)}</Table.Td>
              <Table.Td>{t(`credits.methods.${p.method}`)}</Table.Td>
              <Table.Td>{t(`credits.providers.${p.provider}`)}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[p.status]} variant="light" data-testid="payment-status">
                  {t(`credits.statuses.${p.status}`)}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The ledger: date, movement, credit type, amount and the balance after it. */
export function LedgerTable({
  items,
  showReason = false,
}: {
  items: LedgerEntryDto[] | undefined;
  showReason?: boolean;
}) {
  const { t, i18n } = useTranslation();
  if (items && items.length === 0) return <Text c="dimmed">{t('credits.noEntries')}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table data-testid="ledger-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('credits.date')}</Table.Th>
            <Table.Th>{t('credits.kind')}</Table.Th>
            <Table.Th>{t('credits.type')}</Table.Th>
            <Table.Th>{t('credits.amount')}</Table.Th>
            <Table.Th>{t('credits.balanceAfter')}</Table.Th>
            {showReason && <Table.Th>{t('credits.admin.reason')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items?.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{formatDateTime(e.createdAt, i18n.language)}</Table.Td>
              <Table.Td>{t(`credits.kinds.${e.kind}`)}</Table.Td>
              <Table.Td>{t(`credits.types.${e.type}`)}</Table.Td>
              <Table.Td>{entryAmount(e)}</Table.Td>
              <Table.Td>{e.type === 'BALANCE' ? formatMoney(e.balanceAfter) : e.balanceAfter}</Table.Td>
              {showReason && <Table.Td>{e.reason ?? '—'}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
