import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openServerWithUser } from '../../../test/hooks.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { createCampaignReportsRepository } from './campaigns.reports.repository.ts';

/**
 * A campaign's recipients by phone, compared byte by byte (`collate "C"`): the page and the
 * export's keyset must agree on one order, or the export skips or repeats rows at its pages' seams.
 */
describe(`a campaign's recipients in phone order (${dbKind})`, () => {
  let server: RunningServer;
  let userId: string;

  openServerWithUser((opened) => {
    ({ server, userId } = opened);
  });

  it('pages and exports every recipient once, in the same order, across pages of any size', async () => {
    const repo = createCampaignReportsRepository(server.db.db);
    const campaignId = randomUUID();
    // Numbers of different lengths and prefixes: a shorter number sorts before its extensions.
    const phones = ['+5511999990000', '+551199999', '+5521988887777', '+5511999990001', '+12025550123', '+551199'];
    for (const phone of phones)
      await server.db.db.execute(sql`
        insert into messages (user_id, channel, to_phone, status, parts, provider, content, campaign_id)
        values (${userId}, 'sms_short', ${phone}, 'queued', 1, 'simulator', '{"kind":"sms","text":"Oi"}'::jsonb, ${campaignId})`);
    const byteOrder = [...phones].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(byteOrder).toEqual([
      '+12025550123',
      '+551199',
      '+551199999',
      '+5511999990000',
      '+5511999990001',
      '+5521988887777',
    ]);

    const pages = [1, 2, 3].map((page) => repo.recipients(campaignId, {}, page, 2));
    expect((await Promise.all(pages)).flat().map((r) => r.toPhone)).toEqual(byteOrder);

    for (const size of [1, 2, 4, 5_000]) {
      const exported: string[] = [];
      for await (const page of repo.allRecipients(campaignId, size)) exported.push(...page.map((r) => r.toPhone));
      expect(exported).toEqual(byteOrder);
    }
  });
});
