import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { createManualClock } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';
import {
  campaignsServerOn,
  campaignsUser,
  dispatchSettled,
  importList,
  MONDAY_8AM,
  mobile,
  smsCampaign,
  WORKDAYS,
} from './campaigns.test-support.ts';

/** `days` after MONDAY_8AM, at `time` in São Paulo, as an instant. */
function saoPaulo(days: number, time: string): Date {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return new Date(MONDAY_8AM.getTime() + days * 86_400_000 + ((h - 8) * 60 + m) * 60_000);
}

describe('schedules and the sending window (injected clock)', () => {
  const clock = createManualClock(MONDAY_8AM);
  let server: RunningServer;
  openBeforeAll(campaignsServerOn(clock), (opened) => (server = opened));

  it('waits for its window, then sends by itself when it opens', async () => {
    clock.set(MONDAY_8AM);
    const { user, api: c } = await campaignsUser(server, 10);
    const list = await importList(server, user.token, [{ phone: mobile() }, { phone: mobile() }]);
    const id = await c.create({
      ...smsCampaign('Janela', list, 'Bom dia'),
      window: WORKDAYS,
    });
    const started = await c.move(id, 'start');
    expect(started).toMatchObject({ status: 'RUNNING', waitingWindow: true });
    // The dispatchers the start queued, a supervisor pass and one more dispatch loop all saw the window closed.
    await dispatchSettled(server, id);
    expect((await c.get(id)).counts).toMatchObject({ queued: 2, submitting: 0, delivered: 0 });

    clock.set(saoPaulo(0, '09:00'));
    await server.modules.supervisor.pass();
    const done = await c.waitFor(id);
    expect(done).toMatchObject({ status: 'COMPLETED', waitingWindow: false, counts: { delivered: 2 } });
  });

  it('starts a schedule that passed while Ecoa was down, inside its window', async () => {
    clock.set(saoPaulo(1, '10:00')); // Tuesday
    const { user, api: c } = await campaignsUser(server, 10);
    const list = await importList(server, user.token, [{ phone: mobile() }]);
    const id = await c.create({
      ...smsCampaign('Agendada', list, 'Lembrete'),
      schedule: saoPaulo(1, '15:00').toISOString(),
    });
    const scheduled = await c.move(id, 'start');
    expect(scheduled).toMatchObject({ status: 'SCHEDULED', credits: { reserved: 1 }, startedAt: null });
    await server.modules.supervisor.pass();
    expect((await c.get(id)).status).toBe('SCHEDULED');

    // Ecoa "was down" from before 15:00 until 18:30: the first pass after that starts it.
    clock.set(saoPaulo(1, '18:30'));
    await server.modules.supervisor.pass();
    const done = await c.waitFor(id);
    expect(done).toMatchObject({ status: 'COMPLETED', counts: { delivered: 1 } });
    expect(done.startedAt).toBe(saoPaulo(1, '18:30').toISOString());
  });

  it('never sends a recipient who opted out after the start (credits come back)', async () => {
    clock.set(saoPaulo(2, '10:00')); // Wednesday
    const { user, api: c } = await campaignsUser(server, 10);
    const stays = mobile();
    const leaves = mobile();
    const list = await importList(server, user.token, [{ phone: stays }, { phone: leaves }]);
    const id = await c.create({ ...smsCampaign('Sair', list), schedule: saoPaulo(2, '11:00').toISOString() });
    expect((await c.move(id, 'start')).total).toBe(2);
    // Between the start and the sending, the number asks to stop.
    const optOut = await c.call('POST', '/api/v1/opt-outs', { phones: [leaves] });
    expect(optOut.statusCode, optOut.body).toBeLessThan(300);
    clock.set(saoPaulo(2, '11:00'));
    await server.modules.supervisor.pass();
    const done = await c.waitFor(id);
    expect(done).toMatchObject({
      status: 'COMPLETED',
      counts: { delivered: 1, optedOut: 1 },
      credits: { reserved: 2, used: 1, released: 1 },
    });
  });
});

describe('a scheduled start needs a future date', () => {
  const clock = createManualClock(MONDAY_8AM);
  let server: RunningServer;
  openBeforeAll(campaignsServerOn(clock), (opened) => (server = opened));

  /** A user with 10 SMS credits and a one-recipient list, the clock on Monday 10:00. */
  async function setUp() {
    clock.set(saoPaulo(0, '10:00'));
    const { user, api: c } = await campaignsUser(server, 10);
    const list = await importList(server, user.token, [{ phone: mobile() }]);
    const draft = { name: 'Agenda', channel: 'sms_short' as const, listIds: [list], content: { text: 'Oi' } };
    const untouched = async (id: string) => {
      const campaign = await c.get(id);
      expect(campaign).toMatchObject({ status: 'DRAFT', total: 0, credits: { reserved: 0 }, startedAt: null });
      const balances = await server.modules.ledger.getBalances(user.id);
      expect(balances.SMSSHORT).toEqual({ available: 10, reserved: 0 });
    };
    return { user, c, draft, untouched };
  }

  it('refuses to create or edit a campaign scheduled in the past (beyond a minute of clock skew)', async () => {
    const { c, draft } = await setUp();
    const created = await c.call('POST', '/api/v1/campaigns', { ...draft, schedule: '2020-01-06T10:00:00-03:00' });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json()).toMatchObject({ code: 'SCHEDULE_IN_PAST' });
    const list = await c.call('GET', '/api/v1/campaigns');
    expect(list.json().total).toBe(0);

    const id = await c.create({ ...draft, schedule: saoPaulo(0, '12:00').toISOString() });
    const edited = await c.call('PATCH', `/api/v1/campaigns/${id}`, { schedule: saoPaulo(0, '09:58').toISOString() });
    expect(edited.statusCode, edited.body).toBe(400);
    expect(edited.json()).toMatchObject({ code: 'SCHEDULE_IN_PAST' });
    expect((await c.get(id)).scheduledAt).toBe(saoPaulo(0, '12:00').toISOString());

    // Within the grace: a date the user's clock thought was "now + 1 min" is still taken.
    const skewed = await c.call('PATCH', `/api/v1/campaigns/${id}`, {
      schedule: new Date(saoPaulo(0, '10:00').getTime() - 30_000).toISOString(),
    });
    expect(skewed.statusCode, skewed.body).toBe(200);
  });

  it('refuses a start whose schedule has passed: nothing reserved, nothing sent, still a draft', async () => {
    const { c, draft, untouched } = await setUp();
    const id = await c.create({ ...draft, schedule: saoPaulo(0, '10:30').toISOString() });
    clock.set(saoPaulo(0, '11:00'));
    const res = await c.call('POST', `/api/v1/campaigns/${id}/start`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'SCHEDULE_IN_PAST' });
    await untouched(id);
  });

  it('refuses a start in schedule mode with no date or a past one, and takes a future one as SCHEDULED', async () => {
    const { c, draft, untouched } = await setUp();
    const id = await c.create(draft);
    const missing = await c.call('POST', `/api/v1/campaigns/${id}/start`, { mode: 'schedule', schedule: null });
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'SCHEDULE_REQUIRED' });
    await untouched(id);

    const past = await c.call('POST', `/api/v1/campaigns/${id}/start`, {
      mode: 'schedule',
      schedule: '2020-01-06T10:00:00-03:00',
    });
    expect(past.statusCode, past.body).toBe(400);
    expect(past.json()).toMatchObject({ code: 'SCHEDULE_IN_PAST' });
    await untouched(id);

    const at = saoPaulo(0, '15:00').toISOString();
    const future = await c.call('POST', `/api/v1/campaigns/${id}/start`, { mode: 'schedule', schedule: at });
    expect(future.statusCode, future.body).toBe(200);
    expect(future.json()).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: at,
      startedAt: null,
      credits: { reserved: 1 },
    });
    await server.modules.supervisor.pass();
    expect((await c.get(id)).status).toBe('SCHEDULED');
  });

  it('sends now when the user chose "send now", even over a schedule the draft kept', async () => {
    const { c, draft } = await setUp();
    const id = await c.create({ ...draft, schedule: saoPaulo(0, '15:00').toISOString() });
    const res = await c.call('POST', `/api/v1/campaigns/${id}/start`, { mode: 'now' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'RUNNING',
      scheduledAt: null,
      startedAt: saoPaulo(0, '10:00').toISOString(),
    });
    const bad = await c.call('POST', `/api/v1/campaigns/${await c.create(draft)}/start`, {
      mode: 'now',
      schedule: saoPaulo(0, '15:00').toISOString(),
    });
    expect(bad.statusCode, bad.body).toBe(400);
  });
});
