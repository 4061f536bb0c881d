import { formatBRL, type LedgerEntryDto, type PaymentDto, type PaymentStatus, reaisToCentavos } from '@ecoa/shared';
import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type DataColumn, DataTable } from '../../ui/DataTable';

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
  const columns: DataColumn<PaymentDto>[] = [
    { header: t('credits.date'), cell: (p) => formatDateTime(p.createdAt, i18n.language) },
    { header: t('credits.amount'), cell: (p) => formatMoney(p.amount) },
    { header: t('credits.method'), cell: (p) => t(`credits.methods.${p.method}`) },
    { header: t('credits.provider'), cell: (p) => t(`credits.providers.${p.provider}`) },
    {
      header: t('credits.status'),
      cell: (p) => (
        <Badge color={STATUS_COLOR[p.status]} variant="light" data-testid="payment-status">
          {t(`credits.statuses.${p.status}`)}
        </Badge>
      ),
    },
  ];
  return <DataTable columns={columns} rows={items} rowKey={(p) => p.id} minWidth={560} data-testid="payments-table" />;
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
  const columns: DataColumn<LedgerEntryDto>[] = [
    { header: t('credits.date'), cell: (e) => formatDateTime(e.createdAt, i18n.language) },
    { header: t('credits.kind'), cell: (e) => t(`credits.kinds.${e.kind}`) },
    { header: t('credits.type'), cell: (e) => t(`credits.types.${e.type}`) },
    { header: t('credits.amount'), cell: entryAmount },
    {
      header: t('credits.balanceAfter'),
      cell: (e) => (e.type === 'BALANCE' ? formatMoney(e.balanceAfter) : e.balanceAfter),
    },
    { header: t('credits.admin.reason'), cell: (e) => e.reason ?? '—', show: showReason },
  ];
  return <DataTable columns={columns} rows={items} rowKey={(e) => e.id} minWidth={560} data-testid="ledger-table" />;
}
