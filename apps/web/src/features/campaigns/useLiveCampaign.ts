import type { Campaign } from '@ecoa/shared';
import { type Query, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { campaignsApi } from './campaignsApi';
import { campaignPollInterval, detailPollFacts } from './pollInterval';
import { campaignsKeys } from './queryKeys';

const intervalOf = (q: Query<Campaign, Error, Campaign, readonly unknown[]>) =>
  q.state.data ? campaignPollInterval(detailPollFacts(q.state.data)) : false;

/**
 * A campaign's detail, refetched at the pace `campaignPollInterval` gives (never while the tab is
 * hidden, at once when it shows again). Returns the interval its panels (recipients, chart) follow;
 * when polling stops, those panels are refreshed one last time, so they end on the same numbers
 * as the counts (they poll on their own clock and would otherwise keep a read from seconds before).
 */
export function useLiveCampaign(id: string) {
  const queryClient = useQueryClient();
  const campaign = useQuery({
    queryKey: campaignsKeys.detail(id),
    queryFn: () => campaignsApi.get(id),
    refetchInterval: intervalOf,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: (q) => (intervalOf(q) === false ? false : 'always'),
  });
  const interval = campaign.data ? campaignPollInterval(detailPollFacts(campaign.data)) : false;
  const polling = interval !== false;
  const wasPolling = useRef(false);
  useEffect(() => {
    if (wasPolling.current && !polling) {
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.messages(id) });
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.timeline(id) });
    }
    wasPolling.current = polling;
  }, [polling, id, queryClient]);
  // Nothing moves in a campaign before its start: its panels wait for the status to change.
  const panelInterval = campaign.data?.status === 'SCHEDULED' ? false : interval;
  return { campaign, panelInterval };
}
