/**
 * The money rules every campaign keeps, checked straight in the database (the chaos test and the
 * settle rules' property test): what a campaign holds, what its rows say and what the ledger says
 * must agree whatever happened on the way.
 */
import { createMessageTalliesRepository } from '../src/modules/channels/message-tallies.repository.ts';
import type { DbHandle } from '../src/platform/db/client.ts';

/**
 * The money and row invariants, read at a quiet moment (no batch in flight): every problem as a
 * sentence (none when all hold).
 *  - an ended campaign has no row left queued or submitting;
 *  - per campaign, used + released + open = reserved, used = the parts handed over (HANDED_OVER),
 *    released = the parts never handed over, and the campaign's ledger entries hold exactly the
 *    reservation of its open (queued or submitting) rows;
 *  - per user and credit type, the ledger's entries sum to the balance (available and reserved);
 *  - per campaign, the tallies the screens read equal a recount of its rows (issue 24).
 * `campaignIds` narrows the campaigns checked (the users' ledgers are checked whole).
 */
/**
 * A row the carrier took or may have taken (its credits captured): its submit was stored, it was
 * cut off mid-send (`unknown`), a receipt's status reached it, or the carrier gave it ids. A row
 * `failed` with none of these was refused at submit; `canceled` and `opted_out` never left.
 */
export const HANDED_OVER = `(m.submitted_at is not null or m.status in ('sent', 'unknown', 'delivered', 'expired')
  or exists (select 1 from provider_message_ids p where p.message_id = m.id))`;

export async function moneyProblems(db: DbHandle, userIds: string[], campaignIds?: string[]): Promise<string[]> {
  const problems: string[] = [];
  const tallies = createMessageTalliesRepository(db.db);
  const q = async <T>(text: string, values: unknown[] = []) => (await db.executeSql(text, values)).rows as T[];
  const campaigns = await q<{
    id: string;
    name: string;
    status: string;
    reserved: number;
    used: number;
    released: number;
    handed: number;
    never: number;
    open: number;
    openRows: number;
    entriesReserved: number;
  }>(
    `select c.id, c.name, c.status, c.credits_reserved::int as reserved, c.credits_used::int as used,
            c.credits_released::int as released,
            coalesce(sum(m.parts) filter (where ${HANDED_OVER}), 0)::int as handed,
            coalesce(sum(m.parts) filter (where m.status in ('failed', 'opted_out', 'canceled') and not (${HANDED_OVER})), 0)::int as never,
            coalesce(sum(m.parts) filter (where m.status in ('queued', 'submitting')), 0)::int as open,
            count(m.id) filter (where m.status in ('queued', 'submitting'))::int as "openRows",
            (select coalesce(sum(e.reserved_delta), 0)::int from ledger_entries e
              where e.reference_type = 'campaign' and e.reference_id = c.id::text) as "entriesReserved"
       from campaigns c left join messages m on m.campaign_id = c.id
      where c.user_id = any($1::uuid[]) and c.status <> 'DRAFT' and ($2::uuid[] is null or c.id = any($2::uuid[]))
      group by c.id`,
    [userIds, campaignIds ?? null],
  );
  for (const c of campaigns) {
    const name = `campaign "${c.name}" (${c.status})`;
    if (['COMPLETED', 'CANCELED', 'FAILED'].includes(c.status) && c.openRows > 0)
      problems.push(`${name}: ${c.openRows} rows still queued or submitting`);
    if (c.used + c.released + c.open !== c.reserved)
      problems.push(`${name}: used ${c.used} + released ${c.released} + open ${c.open} ≠ reserved ${c.reserved}`);
    if (c.used !== c.handed) problems.push(`${name}: used ${c.used} ≠ parts handed to the carrier ${c.handed}`);
    if (c.released !== c.never) problems.push(`${name}: released ${c.released} ≠ parts never handed over ${c.never}`);
    if (c.entriesReserved !== c.open)
      problems.push(`${name}: its ledger entries hold ${c.entriesReserved} reserved, its open rows ${c.open}`);
    for (const d of await tallies.differences(c.id))
      problems.push(`${name}: tallies say ${d.tallied} for ${d.key}, its rows ${d.counted}`);
  }
  const balances = await q<{ userId: string; type: string; available: number; reserved: number; a: number; r: number }>(
    `select b.user_id as "userId", b.type, b.available::int as available, b.reserved::int as reserved,
            coalesce((select sum(amount) from ledger_entries e where e.user_id = b.user_id and e.type = b.type), 0)::int as a,
            coalesce((select sum(reserved_delta) from ledger_entries e where e.user_id = b.user_id and e.type = b.type), 0)::int as r
       from credit_balances b where b.user_id = any($1::uuid[])`,
    [userIds],
  );
  for (const b of balances) {
    if (b.a !== b.available || b.r !== b.reserved)
      problems.push(
        `user ${b.userId} ${b.type}: ledger says available ${b.a} reserved ${b.r}, balance ${b.available}/${b.reserved}`,
      );
  }
  return problems;
}
