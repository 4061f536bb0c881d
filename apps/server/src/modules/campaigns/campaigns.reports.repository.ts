import type { CampaignStatus, Channel, MessageStatus } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import type { CampaignRow } from './campaigns.schema.ts';

const n = (v: unknown) => Number(v ?? 0);
/** Where the timeline's buckets start counting (whole hours of UTC are whole hours in São Paulo). */
const EPOCH = '2000-01-01T00:00:00Z';

export type CampaignFilter = {
  userId?: string;
  status?: CampaignStatus;
  channel?: Channel;
  q?: string;
  /** Administrators: the search also matches the user's name, e-mail and company. */
  searchUsers?: boolean;
};

/** A campaign row with its recipients' progress (one GROUP BY for a whole page) and its user. */
export type CampaignProgressRow = CampaignRow & {
  done: number;
  sent: number;
  delivered: number;
  failed: number;
  /** Still in flight or waiting for the carrier's receipt (`submitting`, `sent`). */
  awaiting: number;
  user: { id: string; name: string; email: string; company: string };
};

export type RecipientReportRow = {
  id: string;
  toPhone: string;
  name: string | null;
  status: MessageStatus;
  reason: string | null;
  parts: number;
  digits: string | null;
  /** Clicks on the recipient's tracked link. */
  clicks: number | string;
  /** The code of the recipient's tracked link (`PUBLIC_URL/l/_<code>`), if the campaign has one. */
  shortCode: string | null;
  submittedAt: Date | null;
  finishedAt: Date | null;
};

/** The campaigns' read side: pages of campaigns with progress, recipients, the export, the timeline. */
export function createCampaignReportsRepository(db: Database) {
  const where = (f: CampaignFilter) => {
    const like = f.q ? `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    return sql`c.kind = 'campaign'
      ${f.userId ? sql`and c.user_id = ${f.userId}` : sql``}
      ${f.status ? sql`and c.status = ${f.status}` : sql``}
      ${f.channel ? sql`and c.channel = ${f.channel}` : sql``}
      ${
        like
          ? f.searchUsers
            ? sql`and (c.name ilike ${like} or u.full_name ilike ${like} or u.email ilike ${like} or u.name ilike ${like})`
            : sql`and c.name ilike ${like}`
          : sql``
      }`;
  };

  return {
    async page(
      f: CampaignFilter,
      page: number,
      pageSize: number,
    ): Promise<{ rows: CampaignProgressRow[]; total: number }> {
      const [count] = await rowsOf<{ n: number }>(
        db.execute(sql`select count(*) as n from campaigns c join users u on u.id = c.user_id where ${where(f)}`),
      );
      const rows = await rowsOf<Record<string, unknown>>(
        db.execute(sql`
          select c.id from campaigns c join users u on u.id = c.user_id where ${where(f)}
          order by c.created_at desc, c.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`),
      );
      return { rows: await this.withProgress(rows.map((r) => String(r.id))), total: n(count?.n) };
    },

    /** The campaigns `ids` (in that order) with progress and user. */
    async withProgress(ids: string[]): Promise<CampaignProgressRow[]> {
      if (ids.length === 0) return [];
      const rows = await rowsOf<Record<string, unknown>>(
        db.execute(sql`
          select c.*, u.full_name as u_name, u.email as u_email, u.name as u_company, p.*
          from campaigns c join users u on u.id = c.user_id
          left join lateral (
            select count(*) filter (where m.status not in ('queued', 'submitting')) as done,
                   count(*) filter (where m.submitted_at is not null) as sent,
                   count(*) filter (where m.status = 'delivered') as delivered,
                   count(*) filter (where m.status in ('failed', 'expired')) as failed,
                   count(*) filter (where m.status in ('submitting', 'sent')) as awaiting
            from messages m where m.campaign_id = c.id) p on true
          where c.id = any(${pgArray(ids)}::uuid[])`),
      );
      const byId = new Map(rows.map((r) => [String(r.id), r]));
      return ids.flatMap((id) => {
        const r = byId.get(id);
        return r ? [toProgressRow(r)] : [];
      });
    },

    async recipients(
      campaignId: string,
      f: { status?: MessageStatus; q?: string; clicked?: boolean },
      page: number,
      pageSize: number,
    ): Promise<{ rows: RecipientReportRow[]; total: number }> {
      const digits = f.q?.replace(/\D/g, '');
      const clicked = sql`exists (select 1 from link_clicks k where k.campaign_id = ${campaignId} and k.message_id = m.id)`;
      const filter = sql`m.campaign_id = ${campaignId}
        ${f.status ? sql`and m.status = ${f.status}` : sql``}
        ${f.clicked === undefined ? sql`` : f.clicked ? sql`and ${clicked}` : sql`and not ${clicked}`}
        ${digits ? sql`and m.to_phone like ${`%${digits}%`}` : sql``}`;
      const [count] = await rowsOf<{ n: number }>(
        db.execute(sql`select count(*) as n from messages m where ${filter}`),
      );
      const rows = await rowsOf<RecipientReportRow>(
        db.execute(sql`
          select m.id, m.to_phone as "toPhone", m.contact_name as name, m.status, m.reason, m.parts,
            (select e.detail->>'digits' from message_events e where e.message_id = m.id and e.detail ? 'digits'
              order by e.at desc, e.id desc limit 1) as digits,
            (select count(*) from link_clicks k where k.campaign_id = ${campaignId} and k.message_id = m.id) as clicks,
            m.short_code as "shortCode", m.submitted_at as "submittedAt", m.finished_at as "finishedAt"
          from messages m where ${filter}
          order by m.to_phone limit ${pageSize} offset ${(page - 1) * pageSize}`),
      );
      return { rows, total: n(count?.n) };
    },

    /** Every recipient, in pages by phone (keyset): an export never holds a whole campaign in memory. */
    async *allRecipients(campaignId: string, pageSize = 5_000): AsyncGenerator<RecipientReportRow[]> {
      let after = '';
      for (;;) {
        const rows = await rowsOf<RecipientReportRow>(
          db.execute(sql`
            select m.id, m.to_phone as "toPhone", m.contact_name as name, m.status, m.reason, m.parts,
              d.digits, (select count(*) from link_clicks k where k.campaign_id = ${campaignId} and k.message_id = m.id) as clicks,
              m.short_code as "shortCode",
              m.submitted_at as "submittedAt", m.finished_at as "finishedAt"
            from messages m
            left join lateral (select e.detail->>'digits' as digits from message_events e
              where e.message_id = m.id and e.detail ? 'digits' order by e.at desc, e.id desc limit 1) d on true
            where m.campaign_id = ${campaignId} and m.to_phone > ${after}
            order by m.to_phone limit ${pageSize}`),
        );
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1]!.toPhone;
        if (rows.length < pageSize) return;
      }
    },

    /** Sends and outcomes per bucket of `interval` (a PostgreSQL interval, e.g. '10 seconds'). */
    async timeline(campaignId: string, interval: string) {
      const rows = await rowsOf<{ at: Date; sent: unknown; delivered: unknown; failed: unknown }>(
        db.execute(sql`
          with t as (
            select date_bin(${interval}::interval, submitted_at, ${EPOCH}::timestamptz) as at, 1 as sent, 0 as delivered, 0 as failed
              from messages where campaign_id = ${campaignId} and submitted_at is not null
            union all
            select date_bin(${interval}::interval, finished_at, ${EPOCH}::timestamptz), 0, (status = 'delivered')::int, (status in ('failed', 'expired'))::int
              from messages where campaign_id = ${campaignId} and finished_at is not null
                and status in ('delivered', 'failed', 'expired'))
          select at, sum(sent) as sent, sum(delivered) as delivered, sum(failed) as failed
          from t group by at order by at`),
      );
      return rows.map((r) => ({ at: new Date(r.at), sent: n(r.sent), delivered: n(r.delivered), failed: n(r.failed) }));
    },
  };
}

function toProgressRow(r: Record<string, unknown>): CampaignProgressRow {
  const date = (v: unknown) => (v ? new Date(v as string) : null);
  return {
    id: String(r.id),
    userId: String(r.user_id),
    name: String(r.name),
    kind: r.kind as CampaignRow['kind'],
    channel: r.channel as Channel,
    status: r.status as CampaignStatus,
    listIds: r.list_ids as string[],
    content: r.content as CampaignRow['content'],
    window: r.window as CampaignRow['window'],
    maxRate: r.max_rate === null ? null : n(r.max_rate),
    creditType: r.credit_type as CampaignRow['creditType'],
    total: n(r.total),
    excluded: r.excluded as CampaignRow['excluded'],
    creditsReserved: n(r.credits_reserved),
    creditsUsed: n(r.credits_used),
    creditsReleased: n(r.credits_released),
    statusReason: (r.status_reason as string | null) ?? null,
    statusDetail: (r.status_detail as string | null) ?? null,
    providerFailures: n(r.provider_failures),
    heartbeatAt: date(r.heartbeat_at),
    linksDisabledAt: date(r.links_disabled_at),
    linksDisabledReason: (r.links_disabled_reason as string | null) ?? null,
    createdAt: date(r.created_at)!,
    updatedAt: date(r.updated_at)!,
    scheduledAt: date(r.scheduled_at),
    startedAt: date(r.started_at),
    finishedAt: date(r.finished_at),
    done: n(r.done),
    sent: n(r.sent),
    delivered: n(r.delivered),
    failed: n(r.failed),
    awaiting: n(r.awaiting),
    user: {
      id: String(r.user_id),
      name: String(r.u_name ?? ''),
      email: String(r.u_email ?? ''),
      company: String(r.u_company ?? ''),
    },
  };
}

export type CampaignReportsRepository = ReturnType<typeof createCampaignReportsRepository>;
