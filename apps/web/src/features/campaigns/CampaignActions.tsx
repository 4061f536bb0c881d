import type { CampaignStatus } from '@ecoa/shared';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openConfirmDialog } from '../../ui/ConfirmDialog';
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
    openConfirmDialog({
      centered: true,
      title: t('campaigns.cancelTitle'),
      body: t('campaigns.cancelQuestion'),
      confirmLabel: t('campaigns.cancelConfirm'),
      cancelLabel: t('campaigns.cancelKeep'),
      confirmTestId: 'campaign-cancel-confirm',
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
