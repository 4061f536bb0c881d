import type { Campaign } from '@ecoa/shared';
import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { reasonText } from '../channels';

type Row = { key: string; label: string; count: number };

/** Rows largest first, each with its share of the rows' sum. */
export function withShares(rows: Row[]): (Row & { share: number })[] {
  const sum = rows.reduce((n, r) => n + r.count, 0);
  return [...rows]
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label))
    .map((r) => ({ ...r, share: sum > 0 ? r.count / sum : 0 }));
}

/**
 * A count per row and its share, in columns: as a list, each count sat under the next row's text
 * and read as if it belonged to it.
 */
function CountTable({ rows, columns, testId }: { rows: Row[]; columns: [string, string, string]; testId: string }) {
  const { i18n } = useTranslation();
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const percent = new Intl.NumberFormat(intlLocale(i18n.language), { style: 'percent', maximumFractionDigits: 1 });
  return (
    <Table data-testid={testId} verticalSpacing={6} horizontalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{columns[0]}</Table.Th>
          <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
            {columns[1]}
          </Table.Th>
          <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
            {columns[2]}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {withShares(rows).map((row) => (
          <Table.Tr key={row.key} data-testid={`${testId}-row`}>
            <Table.Td>{row.label}</Table.Td>
            <Table.Td ta="right" fw={600} data-testid={`${testId}-count`}>
              {number.format(row.count)}
            </Table.Td>
            <Table.Td ta="right" c="dimmed" data-testid={`${testId}-share`}>
              {percent.format(row.share)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The failure reasons (reason, count, share of failures), and a URA campaign's answers before them. */
export function CampaignReasons({ campaign: c }: { campaign: Pick<Campaign, 'channel' | 'reasons' | 'answers'> }) {
  const { t } = useTranslation();
  const cols = (group: 'reasonColumns' | 'answerColumns', first: 'reason' | 'answer') =>
    [
      t(`campaigns.detail.${group}.${first}`),
      t(`campaigns.detail.${group}.count`),
      t(`campaigns.detail.${group}.share`),
    ] as [string, string, string];
  const answers = c.channel === 'ura' ? c.answers : [];
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="campaign-reasons">
      <Stack gap="sm">
        {answers.length > 0 && (
          <>
            <Title order={4}>{t('campaigns.detail.answers')}</Title>
            <CountTable
              rows={answers.map((a) => ({
                key: a.digit,
                label: t('campaigns.detail.digit', { digit: a.digit }),
                count: a.count,
              }))}
              columns={cols('answerColumns', 'answer')}
              testId="campaign-answers"
            />
          </>
        )}
        <Title order={4}>{t('campaigns.detail.reasons')}</Title>
        {c.reasons.length > 0 ? (
          <CountTable
            rows={c.reasons.map((r) => ({ key: r.reason, label: reasonText(t, r.reason), count: r.count }))}
            columns={cols('reasonColumns', 'reason')}
            testId="campaign-reason"
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t('campaigns.detail.noReasons')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
