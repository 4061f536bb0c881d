/**
 * A big account for the reports' scale checks (issue 24, goal 4): `campaigns` SMS campaigns of
 * `perCampaign` recipients each, written straight into `campaigns` and `messages` (one statement
 * per campaign). The first is RUNNING with its second half still queued; the others COMPLETED,
 * their outcomes spread over the last hour (1 in 20 failed, 1 in 7 still `sent`, the rest delivered).
 * The bench (`bench/reports.bench.ts`) and the CI test (`test/reports-scale.test.ts`) share it.
 */
type Sql = <T>(text: string, values?: unknown[]) => Promise<T[]>;

export async function seedReportsCampaigns(
  sql: Sql,
  userId: string,
  { campaigns, perCampaign }: { campaigns: number; perCampaign: number },
): Promise<{ ids: string[]; running: string }> {
  const rows = await sql<{ id: string }>(
    `insert into campaigns (user_id, name, channel, status, list_ids, content, "window", credit_type, total, started_at)
     select $1, 'Campanha ' || g, 'sms_short', case when g = 1 then 'RUNNING' else 'COMPLETED' end, '{}',
            '{"text":"Oi"}'::jsonb, '{"days":[0,1,2,3,4,5,6],"start":"00:00","end":"23:59"}'::jsonb, 'SMSSHORT', $2,
            now() - interval '1 hour'
     from generate_series(1, $3::int) g order by g returning id`,
    [userId, perCampaign, campaigns],
  );
  const ids = rows.map((r) => r.id);
  for (const [i, id] of ids.entries()) {
    await sql(
      `insert into messages (user_id, campaign_id, channel, to_phone, status, reason, parts, provider, content,
                             created_at, submitted_at, finished_at)
       select $1, $2, 'sms_short', '+5511' || lpad((900000000 + g)::text, 9, '0'), s.status,
              case when s.status = 'failed' then 'CARRIER_REJECTED' end, 1, 'smpp', '{}'::jsonb,
              now() - interval '1 hour', t.at, case when s.status in ('delivered', 'failed') then t.at + interval '3 seconds' end
       from generate_series(1, $3::int) g,
            lateral (select case when $4 and g > $3 / 2 then 'queued'
                                 when g % 20 = 0 then 'failed' when g % 7 = 0 then 'sent' else 'delivered' end as status) s,
            lateral (select case when s.status = 'queued' then null
                                 else now() - interval '1 hour' + (g % 3600) * interval '1 second' end as at) t`,
      [userId, id, perCampaign, i === 0],
    );
  }
  return { ids, running: ids[0]! };
}

/** The running campaign's next `n` queued rows sent, and `n` sent ones delivered: one step of a dispatcher and its receipts. */
export async function moveRunningCampaign(sql: Sql, campaignId: string, n = 500): Promise<number> {
  const [sent] = await sql<{ n: string }>(
    `with s as (
       update messages set status = 'sent', submitted_at = now(), updated_at = now()
       where id in (select id from messages where campaign_id = $1 and status = 'queued' limit $2) returning id)
     select count(*) as n from s`,
    [campaignId, n],
  );
  await sql(
    `update messages set status = 'delivered', finished_at = now()
     where id in (select id from messages where campaign_id = $1 and status = 'sent' limit $2)`,
    [campaignId, n],
  );
  return Number(sent?.n ?? 0);
}
