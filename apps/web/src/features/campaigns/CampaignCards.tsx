import type { CampaignSummary } from '@ecoa/shared';
import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CampaignActions } from './CampaignActions';
import { CampaignStatusBadge } from './CampaignStatusBadge';
import { CampaignName, CampaignProgress, useCampaignFigures } from './campaignCells';

/** One labelled figure of a card (what a table's header says once for a column). */
function CardFigure({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <Stack gap={0} style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </Stack>
  );
}

/**
 * On a phone, the campaigns table as one card per campaign: name and status on top, its progress,
 * then the figures the wide table has as columns, each with its column's name; nothing runs off
 * the screen's edge. The same test ids as the table's rows.
 */
export function CampaignCards({
  items,
  admin,
  compact,
}: {
  items: CampaignSummary[];
  admin: boolean;
  compact: boolean;
}) {
  const { t } = useTranslation();
  const figures = useCampaignFigures();
  return (
    <Stack gap="sm" data-testid="campaigns-cards">
      {items.map((c) => (
        <Paper key={c.id} withBorder radius="md" p="sm" data-testid="campaign-row" data-id={c.id}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <CampaignName campaign={c} admin={admin} />
            <CampaignStatusBadge status={c.status} waitingWindow={c.waitingWindow} reason={c.statusReason} />
          </Group>
          {admin && (
            <Text size="xs" mt={4} style={{ overflowWrap: 'anywhere' }}>
              {c.user?.company} · {c.user?.email}
            </Text>
          )}
          <Group align="flex-end" wrap="nowrap" gap="xs" mt="xs">
            <div style={{ flex: 1 }}>
              <CampaignProgress campaign={c} />
            </div>
            <CampaignActions id={c.id} status={c.status} admin={admin} />
          </Group>
          {!compact && (
            <SimpleGrid cols={2} spacing="xs" mt="xs">
              <CardFigure label={t('campaigns.columns.deliveryRate')}>{figures.rate(c)}</CardFigure>
              <CardFigure label={t('campaigns.columns.credits')}>{figures.credits(c)}</CardFigure>
              <CardFigure label={`${t('campaigns.columns.when')}${figures.zone}`} wide>
                {figures.when(c)}
                {c.status === 'SCHEDULED' && (
                  <Text span size="xs" c="dimmed" display="block">
                    {t('campaigns.scheduled')}
                  </Text>
                )}
              </CardFigure>
            </SimpleGrid>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
