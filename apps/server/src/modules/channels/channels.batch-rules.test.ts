import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { createChannelsRepository } from './channels.repository.ts';
import { createSmsMessage } from './channels.test-support.ts';
import type { StatusEvent } from './provider.ts';

/**
 * The batch writes' rules beyond the dispatcher's hot path (channels.batch.test.ts): a long SMS
 * whose parts' receipts come in separate batches, settles without a carrier's word, the sweep's
 * answer, what a batch returns for its follow-ups, and (on PostgreSQL) the carrier ids' locks
 * between a submit being stored and its receipts.
 */
describe(`message batches: parts, settles, sweeps, locks (${dbKind})`, () => {
  let server: RunningServer;
  let repo: ReturnType<typeof createChannelsRepository>;
  let userId: string;

  beforeAll(async () => {
    // Its own database on PostgreSQL: the sweep's "nothing to do" is about this file's rows only.
    server = await createTestServer({ isolated: true });
    repo = createChannelsRepository(server.db.db);
    userId = (await signUpAndSignIn(server)).user.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, s));
  const receipt = (id: string, status: StatusEvent['status'], s: number, reason?: string): StatusEvent => ({
    type: 'status',
    provider: 'smpp',
    providerMessageId: id,
    status,
    at: at(s),
    ...(reason ? { reason } : {}),
  });
  const newMessage = (parts = 1) => createSmsMessage(repo, userId, parts, at(0));
  const submit = (messageId: string, providerIds: string[], arrived: StatusEvent[] = []) =>
    server.db.db.transaction((tx) =>
      repo.recordSubmittedBatch([{ messageId, provider: 'smpp', providerIds }], at(1), arrived, tx),
    );
  const rows = async (text: string, params: unknown[]) => (await server.db.executeSql(text, params)).rows;
  const history = async (id: string) =>
    (await rows(
      "select status, reason, at from message_events where message_id = $1 and status <> 'queued' order by at, id",
      [id],
    )) as { status: string; reason: string | null; at: Date }[];
  const parked = async (ids: string[]) =>
    rows('select count(*)::int as n from early_receipts where provider_message_id = any($1)', [ids]);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("a long SMS whose parts' receipts come in separate batches settles on the last, with the failed part's reason", async () => {
    const id = await newMessage(2);
    const [a, b] = [`A-${id}`, `B-${id}`];
    await submit(id, [a, b]);
    // Part A fails: the message waits for part B, but part A's last word is kept.
    expect((await repo.applyReceipts([receipt(a, 'failed', 2, 'absent subscriber')]))[0]).toMatchObject({
      outcome: 'applied',
      messageId: id,
    });
    expect((await repo.findById(id))?.status).toBe('sent');
    expect(
      await rows('select status, reason from provider_message_ids where message_id = $1 order by part', [id]),
    ).toEqual([
      { status: 'failed', reason: 'absent subscriber' },
      { status: null, reason: null },
    ]);
    // Part B's receipt, in another batch, settles it: failed, for part A's reason.
    expect((await repo.applyReceipts([receipt(b, 'delivered', 3)]))[0]!.outcome).toBe('applied');
    const message = await repo.findById(id);
    expect([message?.status, message?.reason]).toEqual(['failed', 'absent subscriber']);
    expect((await history(id)).map((e) => [e.status, e.reason])).toEqual([
      ['sent', null],
      ['failed', 'absent subscriber'],
    ]);
  });

  it("a part's refusal that came with its submit keeps its reason until the last part settles the message", async () => {
    const id = await newMessage(2);
    const [a, b] = [`A-${id}`, `B-${id}`];
    await submit(id, [a, b], [receipt(a, 'failed', 2, 'absent subscriber')]);
    expect((await repo.findById(id))?.status).toBe('sent');
    await repo.applyReceipts([receipt(b, 'delivered', 3)]);
    const message = await repo.findById(id);
    expect([message?.status, message?.reason]).toEqual(['failed', 'absent subscriber']);
  });

  it('the follow-ups of a submit are the waiting receipts that changed something, once each', async () => {
    const id = await newMessage();
    const x = `X-${id}`;
    // A carrier that sent its receipt twice before the submit's answer: both wait.
    const early = await repo.applyReceipts([receipt(x, 'delivered', 2), receipt(x, 'delivered', 2)]);
    expect(early.map((r) => r.outcome)).toEqual(['early', 'early']);
    const result = await submit(id, [x]);
    expect(result.followUps).toEqual([{ event: receipt(x, 'delivered', 2), messageId: id }]);
    expect(result.arrived).toEqual([]);
    expect([...result.moved]).toEqual([id]);
    expect((await repo.findById(id))?.status).toBe('delivered');
    expect(await parked([x])).toEqual([{ n: 0 }]);
  });

  it('receipts that waited are applied in the order they came, not in the order of the parts', async () => {
    const id = await newMessage(2);
    const [a, b] = [`A-${id}`, `B-${id}`];
    // Part B's receipt came first, part A's later (carriers' clocks say otherwise): the message
    // settles when the later one came, at its time.
    await repo.applyReceipts([receipt(b, 'delivered', 5)]);
    await repo.applyReceipts([receipt(a, 'failed', 3, 'rejected')]);
    const result = await submit(id, [a, b]);
    expect(result.followUps.map((f) => f.event.providerMessageId)).toEqual([b, a]);
    expect(await history(id)).toEqual([
      { status: 'sent', reason: null, at: at(1) },
      { status: 'failed', reason: 'rejected', at: at(3) },
    ]);
  });

  it('a batch with no submits: nothing at all gives nothing; receipts alone wait for their submit', async () => {
    expect(await server.db.db.transaction((tx) => repo.recordSubmittedBatch([], at(1), [], tx))).toEqual({
      followUps: [],
      arrived: [],
      moved: new Set(),
    });
    const y = `Y-${randomUUID()}`;
    const result = await server.db.db.transaction((tx) =>
      repo.recordSubmittedBatch([], at(1), [receipt(y, 'delivered', 2)], tx),
    );
    expect(result).toEqual({
      followUps: [],
      arrived: [{ event: receipt(y, 'delivered', 2), outcome: 'early' }],
      moved: new Set(),
    });
    expect(await parked([y])).toEqual([{ n: 1 }]);
    // Its submit, stored later, meets it.
    const id = await newMessage();
    expect((await submit(id, [y])).followUps).toEqual([{ event: receipt(y, 'delivered', 2), messageId: id }]);
    expect((await repo.findById(id))?.status).toBe('delivered');
    expect(await repo.applyReceipts([])).toEqual([]);
  });

  it('settles without a carrier move only the messages still open, with their reason', async () => {
    const [open, done, alsoOpen] = [await newMessage(), await newMessage(), await newMessage()];
    await submit(open, [`S-${open}`]);
    await submit(done, [`S-${done}`], [receipt(`S-${done}`, 'delivered', 2)]);
    const missing = randomUUID();
    const moved = await server.db.db.transaction((tx) =>
      repo.settleBatch(
        [
          { messageId: open, status: 'unknown', reason: 'submit timed out' },
          { messageId: done, status: 'failed', reason: 'late refusal' },
          { messageId: missing, status: 'failed', reason: 'nobody' },
          { messageId: alsoOpen, status: 'canceled', reason: null },
        ],
        at(5),
        tx,
      ),
    );
    expect([...moved].sort()).toEqual([open, alsoOpen].sort());
    const [o, d, c] = [await repo.findById(open), await repo.findById(done), await repo.findById(alsoOpen)];
    expect([o?.status, o?.reason, d?.status, d?.reason, c?.status]).toEqual([
      'unknown',
      'submit timed out',
      'delivered',
      null,
      'canceled',
    ]);
    expect((await history(open)).map((e) => [e.status, e.reason])).toEqual([
      ['sent', null],
      ['unknown', 'submit timed out'],
    ]);
    expect((await history(done)).map((e) => e.status)).toEqual(['sent', 'delivered']);
    expect(await server.db.db.transaction((tx) => repo.settleBatch([], at(6), tx))).toEqual(new Set());
  });

  it('the sweep applies a receipt that lost the race with its id, reports it once, then has nothing to do', async () => {
    const id = await newMessage();
    const z = `Z-${id}`;
    const recent = new Date();
    // Parked twice (a carrier's retry), then the id stored without meeting them (the race).
    await repo.applyReceipts([
      { ...receipt(z, 'delivered', 0), at: recent },
      { ...receipt(z, 'delivered', 0), at: recent },
    ]);
    await rows(
      "insert into provider_message_ids (provider, provider_message_id, message_id, part) values ('smpp', $1, $2, 0)",
      [z, id],
    );
    await rows("update messages set status = 'sent', submitted_at = now() where id = $1", [id]);
    const swept = await repo.sweepEarlyReceipts();
    expect(swept.swept).toBe(2);
    expect(swept.followUps).toEqual([{ event: { ...receipt(z, 'delivered', 0), at: recent }, messageId: id }]);
    expect((await repo.findById(id))?.status).toBe('delivered');
    expect(await parked([z])).toEqual([{ n: 0 }]);
    expect(await repo.sweepEarlyReceipts()).toEqual({ swept: 0, followUps: [] });
  });

  it.runIf(dbKind === 'postgres')(
    'a receipt that comes while its submit is being stored waits for it, and is applied, not parked',
    async () => {
      const id = await newMessage();
      const w = `W-${id}`;
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let stored!: () => void;
      const isStored = new Promise<void>((r) => {
        stored = r;
      });
      const storing = server.db.db.transaction(async (tx) => {
        await repo.recordSubmittedBatch([{ messageId: id, provider: 'smpp', providerIds: [w] }], at(1), [], tx);
        stored();
        await gate;
      });
      await isStored;
      let answered = false;
      const applying = repo.applyReceipts([receipt(w, 'delivered', 2)]).finally(() => {
        answered = true;
      });
      await sleep(300);
      // The id's lock: the receipt waits for the submit's transaction.
      expect(answered).toBe(false);
      release();
      await storing;
      expect((await applying).map((r) => [r.outcome, r.messageId])).toEqual([['applied', id]]);
      expect((await repo.findById(id))?.status).toBe('delivered');
      expect(await parked([w])).toEqual([{ n: 0 }]);
    },
  );

  it.runIf(dbKind === 'postgres')(
    'a submit stored while a batch parks a receipt for its id waits for it, and meets the receipt',
    async () => {
      const id = await newMessage();
      const v = `V-${id}`;
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let parking!: () => void;
      const isParking = new Promise<void>((r) => {
        parking = r;
      });
      // A batch of another bind whose receipts came back with it: this one is not its submit's.
      const other = server.db.db.transaction(async (tx) => {
        const r = await repo.recordSubmittedBatch([], at(1), [receipt(v, 'delivered', 2)], tx);
        parking();
        await gate;
        return r;
      });
      await isParking;
      let answered = false;
      const storing = submit(id, [v]).finally(() => {
        answered = true;
      });
      await sleep(300);
      expect(answered).toBe(false);
      release();
      expect((await other).arrived.map((r) => r.outcome)).toEqual(['early']);
      expect((await storing).followUps.map((f) => f.messageId)).toEqual([id]);
      expect((await repo.findById(id))?.status).toBe('delivered');
      expect(await parked([v])).toEqual([{ n: 0 }]);
    },
  );

  it.runIf(dbKind === 'postgres')(
    "two processes' sweeps that read the same waiting key pressed apply it once (one digits step, one follow-up)",
    async () => {
      const id = await newMessage();
      const k = `K-${id}`;
      const key: StatusEvent = { ...receipt(k, 'sent', 0), at: new Date(), detail: { digits: '1' } };
      await repo.applyReceipts([key]);
      await rows(
        "insert into provider_message_ids (provider, provider_message_id, message_id, part) values ('smpp', $1, $2, 0)",
        [k, id],
      );
      await rows("update messages set status = 'sent', submitted_at = now() where id = $1", [id]);
      // Another batch holds the id's lock (it parks a later receipt of it) while both sweeps read.
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let holding!: () => void;
      const isHolding = new Promise<void>((r) => {
        holding = r;
      });
      const other = server.db.db.transaction(async (tx) => {
        await repo.recordSubmittedBatch([], at(1), [{ ...receipt(k, 'delivered', 0), at: new Date() }], tx);
        holding();
        await gate;
      });
      await isHolding;
      const sweeps = [repo.sweepEarlyReceipts(), repo.sweepEarlyReceipts()];
      await sleep(300);
      release();
      await other;
      const [a, b] = await Promise.all(sweeps);
      expect(a!.swept + b!.swept).toBe(1);
      expect([...a!.followUps, ...b!.followUps].map((f) => f.event.detail)).toEqual([{ digits: '1' }]);
      expect(
        await rows(
          "select detail->>'digits' as digits from message_events where message_id = $1 and detail is not null",
          [id],
        ),
      ).toEqual([{ digits: '1' }]);
    },
  );
});
