import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { startUraRig, type UraRig } from './channels.test-support.ts';

/**
 * Receipts that came before their submit was stored wait in `early_receipts`; whichever path
 * applies them later must also do what the receipt brings (a URA key to the customer's URL).
 */
describe(`receipts applied after their submit (${dbKind})`, () => {
  let server: RunningServer;
  let repo: UraRig['repo'];
  let userId: string;
  let hook: UraRig['hook'];
  openBeforeAll(startUraRig, (opened) => ({ server, repo, userId, hook } = opened));

  const uraMessage = (toPhone: string) =>
    repo.createMessage(
      {
        userId,
        channel: 'ura',
        toPhone,
        parts: 1,
        provider: 'voice',
        content: { kind: 'ura', prompt: { tts: 'Tecle 1 ou 2.' }, options: ['1', '2'], integrationUrl: hook.url },
      },
      new Date(),
    );

  async function waitForAnswers(count: number): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (hook.answers.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }

  it('a URA key applied by the early-receipt sweep reaches the integration URL', async () => {
    const id = await uraMessage('+5511987650101');
    const callSid = `CA-sweep-${id}`;
    // The key pressed comes before the call's id is stored: it waits.
    await server.modules.channels.handleEvent({
      type: 'status',
      provider: 'voice',
      providerMessageId: callSid,
      status: 'sent',
      at: new Date(),
      detail: { digits: '2' },
    });
    const { rows: parked } = await server.db.executeSql(
      'select count(*)::int as n from early_receipts where provider_message_id = $1',
      [callSid],
    );
    expect(parked).toEqual([{ n: 1 }]);
    // The id stored without meeting it (the race the sweep is for: a crash between the two, a
    // lost race): only the sweep applies it now.
    await server.db.executeSql(
      "insert into provider_message_ids (provider, provider_message_id, message_id, part) values ('voice', $1, $2, 0)",
      [callSid, id],
    );
    await server.db.executeSql("update messages set status = 'sent', submitted_at = now() where id = $1", [id]);
    await server.modules.supervisor.pass();
    const { rows: left } = await server.db.executeSql(
      'select count(*)::int as n from early_receipts where provider_message_id = $1',
      [callSid],
    );
    expect(left).toEqual([{ n: 0 }]);
    const { rows: digits } = await server.db.executeSql(
      "select detail->>'digits' as digits from message_events where message_id = $1 and detail is not null",
      [id],
    );
    expect(digits).toEqual([{ digits: '2' }]);
    await waitForAnswers(1);
    expect(hook.answers).toEqual([{ phone: '+5511987650101', digit: '2', campaignId: null }]);
  });
});
