import {
  CAMPAIGN_COUNT_KEY,
  type CampaignList,
  type CampaignMessages,
  type CampaignStatus,
  type CampaignSummary,
  type CampaignTimeline,
  type Channel,
  isInWindow,
  type MessageStatus,
  trackedLinkUrl,
} from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import { isoOrNull } from '../../platform/db/rows.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { csvLine } from '../../platform/http/csv.ts';
import type { CampaignTally, MessageTallies } from '../channels/index.ts';
import type { CampaignReportsRepository, CampaignWithUserRow } from './campaigns.reports.repository.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import type { CampaignRow } from './campaigns.schema.ts';
import { bucketInterval, timelineBucket, withEmptyBuckets } from './campaigns.timeline.ts';

// Raw SQL answers timestamps as Date (node-postgres) or text (PGlite): both go through `new Date`.
const SAO_PAULO = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  dateStyle: 'short',
  timeStyle: 'medium',
});

/** What every answer about a campaign says alike: which it is, where it stands, its moments. */
export function campaignBasics(row: CampaignRow, now: Date) {
  return {
    id: row.id,
    name: row.name,
    channel: row.channel,
    status: row.status,
    total: row.total,
    statusReason: row.statusReason,
    waitingWindow: row.status === 'RUNNING' && !isInWindow(row.window, now),
    createdAt: row.createdAt.toISOString(),
    scheduledAt: isoOrNull(row.scheduledAt),
    startedAt: isoOrNull(row.startedAt),
    finishedAt: isoOrNull(row.finishedAt),
  };
}

/** A campaign with its user and its recipients' tally, as the lists and the home page show it. */
export type CampaignProgress = { row: CampaignWithUserRow; tally: CampaignTally };

export function toSummary({ row, tally }: CampaignProgress, now: Date, withUser = false): CampaignSummary {
  const c = tally.counts;
  return {
    ...campaignBasics(row, now),
    done: Object.values(c).reduce((sum, k) => sum + k, 0) - c.queued - c.submitting,
    sent: tally.submitted,
    delivered: c.delivered,
    failed: c.failed + c.expired,
    awaiting: c.submitting + c.sent,
    creditsUsed: row.creditsUsed,
    ...(withUser ? { user: row.user } : {}),
  };
}

type ListQuery = { status?: CampaignStatus; channel?: Channel; q?: string; page: number; pageSize: number };

/** What the campaign screens read: lists with progress, recipients, the export, the timeline. */
export function createCampaignReports(deps: {
  repo: CampaignReportsRepository;
  campaigns: CampaignsRepository;
  /** The recipients counted per status, day and second (the channels module's tallies). */
  tallies: Pick<MessageTallies, 'campaigns' | 'timeline'>;
  clock: Clock;
  /** Where recipients' tracked links live (`PUBLIC_URL/l/_<code>`), for the export. */
  publicUrl: string;
}) {
  const { repo, clock } = deps;

  async function tallied(id: string, status: MessageStatus | undefined): Promise<number> {
    const { counts } = (await deps.tallies.campaigns([id])).get(id)!;
    if (!status) return Object.values(counts).reduce((sum, k) => sum + k, 0);
    return counts[CAMPAIGN_COUNT_KEY[status]];
  }

  async function owned(userId: string, id: string) {
    const row = await deps.campaigns.findOwned(userId, id);
    if (!row) throw new AppError('CAMPAIGN_NOT_FOUND');
    return row;
  }

  async function withTallies(rows: CampaignWithUserRow[]): Promise<CampaignProgress[]> {
    const tallies = await deps.tallies.campaigns(rows.map((r) => r.id));
    return rows.map((row) => ({ row, tally: tallies.get(row.id)! }));
  }

  return {
    /** The campaigns `ids` (in that order) with their users and tallies (the home page). */
    async withProgress(ids: string[]): Promise<CampaignProgress[]> {
      return withTallies(await repo.withUsers(ids));
    },

    async list(userId: string, query: ListQuery): Promise<CampaignList> {
      const { rows, total } = await repo.page({ ...query, userId }, query.page, query.pageSize);
      const now = clock.now();
      const items = (await withTallies(rows)).map((c) => toSummary(c, now));
      return { items, total, page: query.page, pageSize: query.pageSize };
    },

    /** Administrators: every user's campaigns, with the user. */
    async listAll(query: ListQuery & { userId?: string }): Promise<CampaignList> {
      const { rows, total } = await repo.page({ ...query, searchUsers: true }, query.page, query.pageSize);
      const now = clock.now();
      const items = (await withTallies(rows)).map((c) => toSummary(c, now, true));
      return { items, total, page: query.page, pageSize: query.pageSize };
    },

    async messages(
      userId: string,
      id: string,
      query: { status?: MessageStatus; q?: string; clicked?: boolean; page: number; pageSize: number },
    ): Promise<CampaignMessages> {
      await owned(userId, id);
      const { page, pageSize, ...filter } = query;
      // Unfiltered or by status, the total is the tallies' (a count of a big campaign's rows on every poll is not).
      const byTally = filter.q === undefined && filter.clicked === undefined;
      const [rows, total] = await Promise.all([
        repo.recipients(id, filter, page, pageSize),
        byTally ? tallied(id, filter.status) : repo.countRecipients(id, filter),
      ]);
      return {
        items: rows.map((r) => ({
          id: r.id,
          to: r.toPhone,
          name: r.name,
          status: r.status,
          reason: r.reason,
          parts: r.parts,
          digits: r.digits,
          clicks: Number(r.clicks),
          submittedAt: isoOrNull(r.submittedAt),
          finishedAt: isoOrNull(r.finishedAt),
        })),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    /** Every recipient as CSV (`;`, UTF-8 with BOM, formula-safe), streamed page by page. */
    async export(userId: string, id: string): Promise<{ fileName: string; lines: AsyncIterable<string> }> {
      const campaign = await owned(userId, id);
      const fileName = `${campaign.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'campanha'}-destinatarios.csv`;
      const time = (d: Date | null) => (d ? SAO_PAULO.format(new Date(d)) : '');
      async function* lines(): AsyncGenerator<string> {
        yield '\ufeff';
        yield csvLine([
          'telefone',
          'nome',
          'status',
          'motivo',
          'partes',
          'digitos',
          'cliques',
          'link',
          'enviado em',
          'finalizado em',
        ]);
        for await (const page of repo.allRecipients(id)) {
          let chunk = '';
          for (const r of page) {
            chunk += csvLine([
              r.toPhone.replace(/^\+/, ''),
              r.name,
              r.status,
              r.reason,
              String(r.parts),
              r.digits,
              String(Number(r.clicks)),
              r.shortCode ? trackedLinkUrl(deps.publicUrl, r.shortCode) : '',
              time(r.submittedAt),
              time(r.finishedAt),
            ]);
          }
          yield chunk;
        }
      }
      return { fileName, lines: lines() };
    },

    async timeline(userId: string, id: string): Promise<CampaignTimeline> {
      const campaign = await owned(userId, id);
      const start = campaign.startedAt ?? campaign.createdAt;
      const end = campaign.finishedAt ?? clock.now();
      const bucket = timelineBucket(start, end);
      const points = withEmptyBuckets(await deps.tallies.timeline(id, bucketInterval(bucket)), bucket);
      return { bucket, points: points.map((p) => ({ ...p, at: p.at.toISOString() })) };
    },
  };
}

export type CampaignReports = ReturnType<typeof createCampaignReports>;
