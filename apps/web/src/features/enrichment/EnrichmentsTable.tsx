import type { Enrichment } from '@ecoa/shared';
import { Anchor, Badge, Progress, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';

type Row = Enrichment & { user?: { name: string; email: string; company: string } };

const STATUS_COLOR = { processing: 'blue', ready: 'teal', failed: 'red' } as const;

/** Enrichments with their status, counts and credits; the user column for administrators. */
export function EnrichmentsTable({ items, onOpen }: { items: Row[]; onOpen: (e: Row) => void }) {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language);
  const number = new Intl.NumberFormat(locale);
  const withUser = items.some((e) => e.user);
  return (
    <Table.ScrollContainer minWidth={withUser ? 980 : 820}>
      <Table verticalSpacing="sm" highlightOnHover data-testid="enrichments-table">
        <Table.Thead>
          <Table.Tr>
            {withUser && <Table.Th>{t('enrichment.columns.user')}</Table.Th>}
            <Table.Th>{t('enrichment.columns.name')}</Table.Th>
            <Table.Th>{t('enrichment.columns.status')}</Table.Th>
            <Table.Th ta="right">{t('enrichment.columns.cnpjs')}</Table.Th>
            <Table.Th ta="right">{t('enrichment.columns.found')}</Table.Th>
            <Table.Th ta="right">{t('enrichment.columns.withPhone')}</Table.Th>
            <Table.Th ta="right">{t('enrichment.columns.credits')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((e) => (
            <Table.Tr key={e.id} data-testid="enrichment-row">
              {withUser && e.user && (
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {e.user.company}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {e.user.name} · {e.user.email}
                  </Text>
                </Table.Td>
              )}
              <Table.Td>
                <Anchor component="button" fw={600} onClick={() => onOpen(e)} data-testid="enrichment-open">
                  {e.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {new Date(e.createdAt).toLocaleString(locale)}
                </Text>
              </Table.Td>
              <Table.Td miw={150}>
                <Stack gap={4}>
                  <Badge color={STATUS_COLOR[e.status]} variant="light" data-testid="enrichment-status">
                    {t(`enrichment.status.${e.status}`)}
                  </Badge>
                  {e.status === 'processing' && <Progress value={e.progress} size="sm" animated />}
                </Stack>
              </Table.Td>
              <Table.Td ta="right">{number.format(e.valid)}</Table.Td>
              <Table.Td ta="right">{e.status === 'ready' ? number.format(e.found) : '—'}</Table.Td>
              <Table.Td ta="right" data-testid="enrichment-with-phone">
                {e.status === 'ready' ? number.format(e.withPhone) : '—'}
              </Table.Td>
              <Table.Td ta="right">
                {number.format(e.status === 'ready' ? e.credits.used : e.credits.reserved)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
