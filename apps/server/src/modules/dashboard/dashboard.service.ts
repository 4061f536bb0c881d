import type { DashboardSummary } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import { type CampaignReports, toSummary } from '../campaigns/index.ts';
import type { MessagesOnDay } from '../channels/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { DashboardRepository } from './dashboard.repository.ts';

const DAYS = 30;

/** The signed-in user's home page: campaigns now, the last 30 days per channel, the first steps. */
export function createDashboardService(deps: {
  repo: DashboardRepository;
  campaigns: Pick<CampaignReports, 'withProgress'>;
  ledger: Pick<LedgerService, 'getBalances'>;
  /** The user's messages per day from a date's day on (the channels module's tallies). */
  messagesPerDay: (userId: string, since: Date) => Promise<MessagesOnDay[]>;
  clock: Clock;
}) {
  return {
    async summary(userId: string): Promise<DashboardSummary> {
      const now = deps.clock.now();
      const since = new Date(now.getTime() - DAYS * 86_400_000);
      const [ids, daily, steps, balances] = await Promise.all([
        deps.repo.campaignIds(userId),
        deps.messagesPerDay(userId, since),
        deps.repo.steps(userId),
        deps.ledger.getBalances(userId),
      ]);
      // One read for both lists (a running campaign is often a recent one too).
      const progress = new Map(
        (await deps.campaigns.withProgress([...new Set([...ids.running, ...ids.recent])])).map((c) => [c.row.id, c]),
      );
      const summaries = (list: string[]) => list.flatMap((id) => progress.get(id) ?? []).map((c) => toSummary(c, now));
      return {
        running: summaries(ids.running),
        recent: summaries(ids.recent),
        daily,
        totals: {
          sent: daily.reduce((n, d) => n + d.sent, 0),
          delivered: daily.reduce((n, d) => n + d.delivered, 0),
          campaigns: steps.campaigns,
        },
        firstSteps: {
          hasList: steps.hasList,
          hasCredits: Object.values(balances).some((b) => b.available + b.reserved > 0),
          hasCampaign: steps.hasCampaign,
        },
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
