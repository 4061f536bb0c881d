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
  const move = (to: 'pause' | 'resume') => () => moves.mutate({ id, move: to });
  return (
    <Group gap={4} wrap="nowrap">
      {canPause(status) && (
        <MoveButton move="pause" icon={IconPlayerPause} loading={moves.isPending} onClick={move('pause')} />
      )}
      {!admin && canResume(status) && (
        <MoveButton
          move="resume"
          icon={IconPlayerPlay}
          color="teal"
          loading={moves.isPending}
          onClick={move('resume')}
        />
      )}
      {canCancel(status) && status !== 'DRAFT' && (
        <MoveButton move="cancel" icon={IconX} color="red" onClick={cancel} />
      )}
    </Group>
  );
}

/** One move's icon button, named by its tooltip (`campaigns.<move>`). */
function MoveButton({
  move,
  icon: Icon,
  color,
  loading,
  onClick,
}: {
  move: 'pause' | 'resume' | 'cancel';
  icon: typeof IconX;
  color?: string;
  loading?: boolean;
  onClick: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t(`campaigns.${move}`)}>
      <ActionIcon
        variant="subtle"
        color={color}
        aria-label={t(`campaigns.${move}`)}
        data-testid={`campaign-${move}`}
        loading={loading}
        onClick={onClick}
      >
        <Icon size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
