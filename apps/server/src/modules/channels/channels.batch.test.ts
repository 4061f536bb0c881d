import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { createChannelsRepository } from './channels.repository.ts';
import { createSmsMessage } from './channels.test-support.ts';
import { createInflightSubmits } from './inflight-submits.ts';
import type { StatusEvent } from './provider.ts';

/**
 * A batch of submits stored together with the receipts that came back while it was being sent
 * (the campaign dispatcher's hot path): one write per message, the rules of one-by-one.
 */
describe(`submits stored with the receipts that came first (${dbKind})`, () => {
  let server: RunningServer;
  let repo: ReturnType<typeof createChannelsRepository>;
  let userId: string;

  beforeAll(async () => {
    server = await createTestServer();
    repo = createChannelsRepository(server.db.db);
    userId = (await signUpAndSignIn(server)).user.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, s));
  const receipt = (id: string, status: StatusEvent['status'], s: number): StatusEvent => ({
    type: 'status',
    provider: 'smpp',
    providerMessageId: id,
    status,
    at: at(s),
  });
  const newMessage = (parts: number) => createSmsMessage(repo, userId, parts, at(0));
  const history = async (id: string) =>
    (
      await server.db.executeSql(
        "select status from message_events where message_id = $1 and status <> 'queued' order by at, id",
        [id],
      )
    ).rows.map((r) => (r as { status: string }).status);

  it('a long SMS whose receipts all came back (one parked, one riding along) is stored delivered in one go', async () => {
    const id = await newMessage(2);
    const [a, b] = [`A-${id}`, `B-${id}`];
    // Part A's receipt came before anything (another process's bind): parked in early_receipts.
    expect((await repo.applyReceipts([receipt(a, 'delivered', 2)]))[0]!.outcome).toBe('early');
    const result = await server.db.db.transaction((tx) =>
      repo.recordSubmittedBatch(
        [{ messageId: id, provider: 'smpp', providerIds: [a, b] }],
        at(1),
        [receipt(b, 'delivered', 3)],
        tx,
      ),
    );
    expect(result.arrived.map((r) => r.outcome)).toEqual(['applied']);
    expect(result.followUps.map((f) => f.messageId)).toEqual([id]);
    const message = await repo.findById(id);
    expect(message?.status).toBe('delivered');
    expect(await history(id)).toEqual(['sent', 'delivered']);
    const { rows: parts } = await server.db.executeSql(
      'select status from provider_message_ids where message_id = $1 order by part',
      [id],
    );
    expect(parts).toEqual([{ status: 'delivered' }, { status: 'delivered' }]);
    const { rows: parked } = await server.db.executeSql(
      'select count(*)::int as n from early_receipts where provider_message_id = any($1)',
      [[a, b]],
    );
    expect(parked).toEqual([{ n: 0 }]);
  });

  it('a part still waiting keeps the message sent; the same receipt twice changes nothing', async () => {
    const id = await newMessage(2);
    const [a, b] = [`A-${id}`, `B-${id}`];
    const result = await server.db.db.transaction((tx) =>
      repo.recordSubmittedBatch(
        [{ messageId: id, provider: 'smpp', providerIds: [a, b] }],
        at(1),
        [receipt(a, 'delivered', 2), receipt(a, 'delivered', 2)],
        tx,
      ),
    );
    expect(result.arrived.map((r) => r.outcome)).toEqual(['applied', 'unchanged']);
    expect((await repo.findById(id))?.status).toBe('sent');
    // The last part's receipt, the ordinary way, settles it (a failed part fails the message).
    expect((await repo.applyReceipts([receipt(b, 'failed', 4)]))[0]!.outcome).toBe('applied');
    expect((await repo.findById(id))?.status).toBe('failed');
    expect(await history(id)).toEqual(['sent', 'failed']);
  });

  it('the same carrier id twice in one batch (two submits, two parts, raw duplicate receipts) does not abort it', async () => {
    const [first, second, other] = [await newMessage(1), await newMessage(1), await newMessage(1)];
    const shared = `DUP-${first}`;
    const twoParts = await newMessage(2);
    const samePart = `SAME-${twoParts}`;
    // Receipts that came before their submit, each twice (a carrier that retried its deliver_sm).
    const early = await repo.applyReceipts([receipt(samePart, 'delivered', 2), receipt(samePart, 'delivered', 2)]);
    expect(early.map((r) => r.outcome)).toEqual(['early', 'early']);
    const result = await server.db.db.transaction((tx) =>
      repo.recordSubmittedBatch(
        [
          { messageId: first, provider: 'smpp', providerIds: [shared] },
          { messageId: other, provider: 'smpp', providerIds: [`OK-${other}`] },
          { messageId: second, provider: 'smpp', providerIds: [shared] },
          // A carrier that gave both parts of a long SMS the same id.
          { messageId: twoParts, provider: 'smpp', providerIds: [samePart, samePart] },
        ],
        at(1),
        [receipt(`OK-${other}`, 'delivered', 3), receipt(`OK-${other}`, 'delivered', 3)],
        tx,
      ),
    );
    expect(result.arrived.map((r) => r.outcome)).toEqual(['applied', 'unchanged']);
    // The whole batch was stored: every message moved on, the one with a receipt settled.
    expect((await repo.findById(first))?.status).toBe('sent');
    expect((await repo.findById(second))?.status).toBe('sent');
    expect((await repo.findById(other))?.status).toBe('delivered');
    // One id, one owner: the newest submission (the later row), as when a carrier reuses an id.
    const { rows: owners } = await server.db.executeSql(
      'select message_id from provider_message_ids where provider_message_id = $1',
      [shared],
    );
    expect(owners).toEqual([{ message_id: second }]);
    const late = await repo.applyReceipts([receipt(shared, 'delivered', 4), receipt(shared, 'delivered', 4)]);
    expect(late.map((r) => [r.outcome, r.messageId])).toEqual([
      ['applied', second],
      ['unchanged', second],
    ]);
    expect((await repo.findById(second))?.status).toBe('delivered');
    // The long SMS whose parts share an id settles by that id's receipt (it had come first, twice).
    expect((await repo.findById(twoParts))?.status).toBe('delivered');
    expect(await history(twoParts)).toEqual(['sent', 'delivered']);
  });

  it('the in-flight registry: the receipt of a tracked id joins its batch until the settle takes it, for a while at most', async () => {
    const inflight = createInflightSubmits({
      ordinary: async (event) => (await repo.applyReceipts([event]))[0]!,
      maxWaitMs: 50,
    });
    const batch = inflight.batch();
    expect(inflight.offer(receipt('X1', 'delivered', 1))).toBeUndefined();
    batch.track('smpp', ['X1']);
    const joined = inflight.offer(receipt('X1', 'delivered', 1));
    expect(joined).toBeDefined();
    expect(batch.take().map((e) => e.providerMessageId)).toEqual(['X1']);
    // Taken: a later receipt goes the ordinary way.
    expect(inflight.offer(receipt('X1', 'delivered', 2))).toBeUndefined();
    batch.settled([{ event: receipt('X1', 'delivered', 1), messageId: 'm', outcome: 'applied' }]);
    await expect(joined).resolves.toMatchObject({ outcome: 'applied', messageId: 'm' });

    const failing = inflight.batch();
    failing.track('smpp', ['Y1']);
    const refused = inflight.offer(receipt('Y1', 'delivered', 1))!;
    failing.failed(new Error('database gone'));
    await expect(refused).rejects.toThrow('database gone');
    expect(inflight.offer(receipt('Y1', 'delivered', 2))).toBeUndefined();

    // A batch slow to settle: its receipt is stored on its own (parked until its submit is) and
    // answered; the batch no longer has it.
    const slow = inflight.batch();
    const z = `Z-${randomUUID()}`;
    slow.track('smpp', [z]);
    await expect(inflight.offer(receipt(z, 'delivered', 1))).resolves.toMatchObject({ outcome: 'early' });
    // A key pressed on a call never waits for a batch (the person on the line hears silence).
    expect(inflight.offer({ ...receipt(z, 'sent', 2), detail: { digits: '1' } })).toBeUndefined();
    expect(slow.take()).toEqual([]);
  });
});
