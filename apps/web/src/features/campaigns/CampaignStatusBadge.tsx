import type { CampaignStatus } from '@ecoa/shared';
import { Badge, Group, Tooltip } from '@mantine/core';
import { IconClockPause } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CAMPAIGN_STATUS_COLOR } from './format';

/** The campaign's status; "waiting for its window" and the reason of a pause when there is one. */
export function CampaignStatusBadge({
  status,
  waitingWindow,
  reason,
}: {
  status: CampaignStatus;
  waitingWindow?: boolean;
  reason?: string | null;
}) {
  const { t } = useTranslation();
  const badge = (
    <Badge color={CAMPAIGN_STATUS_COLOR[status]} variant="light" data-testid="campaign-status" data-status={status}>
      {t(`campaigns.status.${status}`)}
    </Badge>
  );
  return (
    <Group gap={4} wrap="nowrap">
      {reason ? (
        <Tooltip label={t(`campaigns.statusReason.${reason}`, { defaultValue: reason })}>{badge}</Tooltip>
      ) : (
        badge
      )}
      {waitingWindow && (
        <Tooltip label={t('campaigns.waitingWindow')}>
          <IconClockPause size={16} aria-label={t('campaigns.waitingWindow')} data-testid="campaign-waiting-window" />
        </Tooltip>
      )}
    </Group>
  );
}
