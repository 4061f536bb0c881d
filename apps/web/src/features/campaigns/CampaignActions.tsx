import type { CampaignStatus } from '@ecoa/shared';
import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPlayerPause, IconPlayerPlay, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { canCancel, canPause, canResume } from './format';
import { useCampaignMoves } from './useCampaignMoves';

/** Pause / resume / cancel of one campaign (cancel asks first: the unsent credits come back). */
export function CampaignActions({
  id,
  status,
  admin = false,
}: {
  id: string;
  status: CampaignStatus;
  admin?: boolean;
}) {
  const { t } = useTranslation();
  const moves = useCampaignMoves({ admin });
  const cancel = () =>
    modals.openConfirmModal({
      centered: true,
      title: t('campaigns.cancelTitle'),
      children: <Text size="sm">{t('campaigns.cancelQuestion')}</Text>,
      labels: { confirm: t('campaigns.cancelConfirm'), cancel: t('campaigns.cancelKeep') },
      confirmProps: { color: 'red', 'data-testid': 'campaign-cancel-confirm' } as Record<string, unknown>,
      onConfirm: () => moves.mutate({ id, move: 'cancel' }),
    });
  return (
    <Group gap={4} wrap="nowrap">
      {canPause(status) && (
        <Tooltip label={t('campaigns.pause')}>
          <ActionIcon
            variant="subtle"
            aria-label={t('campaigns.pause')}
            data-testid="campaign-pause"
            loading={moves.isPending}
            onClick={() => moves.mutate({ id, move: 'pause' })}
          >
            <IconPlayerPause size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {!admin && canResume(status) && (
        <Tooltip label={t('campaigns.resume')}>
          <ActionIcon
            variant="subtle"
            color="teal"
            aria-label={t('campaigns.resume')}
            data-testid="campaign-resume"
            loading={moves.isPending}
            onClick={() => moves.mutate({ id, move: 'resume' })}
          >
            <IconPlayerPlay size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {canCancel(status) && status !== 'DRAFT' && (
        <Tooltip label={t('campaigns.cancel')}>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('campaigns.cancel')}
            data-testid="campaign-cancel"
            onClick={cancel}
          >
            <IconX size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
