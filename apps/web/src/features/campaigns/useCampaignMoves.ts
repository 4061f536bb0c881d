import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { refreshMoney } from '../credits';
import { type CampaignMove, campaignsApi } from './campaignsApi';
import { campaignsKeys } from './queryKeys';

/**
 * Pause, resume, cancel (as the owner, or as an administrator): refreshes what shows the
 * campaign; a cancel also releases the credits of what was not sent, so the money is read again.
 */
export function useCampaignMoves(options: { admin?: boolean } = {}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, move }: { id: string; move: CampaignMove }) =>
      options.admin && (move === 'pause' || move === 'cancel')
        ? campaignsApi.adminMove(id, move)
        : campaignsApi.move(id, move),
    onSuccess: (_data, { id, move }) => {
      if (move === 'cancel') void refreshMoney(queryClient);
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.dashboardSummary });
    },
    onError: (err) =>
      notifications.show({
        color: 'red',
        message: errorText(err, t, 'campaigns.errors.generic'),
      }),
  });
}
