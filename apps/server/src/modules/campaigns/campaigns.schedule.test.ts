import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';
import { userWithCredits } from '../channels/channels.test-support.ts';
import { api, importList, mobile, startCampaignsServer } from './campaigns.test-support.ts';

/** Monday 2026-11-23, 08:00 in São Paulo (UTC−3): before the default window opens at 09:00. */
const MONDAY_8AM = new Date('2026-11-23T11:00:00Z');

describe('schedules and the sending window (injected clock)', () => {
  const clock = createManualClock(MONDAY_8AM);
  let server: RunningServer;
  beforeAll(async () => {
    server = await startCampaignsServer({ clock });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('waits for its window, then sends by itself when it opens', async () => {
    clock.set(MONDAY_8AM);
    const user = await userWithCredits(server, 10);
    const c = api(server, user.token);
    const list = await importList(server, user.token, [{ phone: mobile() }, { phone: mobile() }]);
    const id = await c.create({
      name: 'Janela',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Bom dia' },
      window: { days: [1, 2, 3, 4, 5, 6], start: '09:00', end: '21:00' },
    });
    const started = await c.move(id, 'start');
    expect(started).toMatchObject({ status: 'RUNNING', waitingWindow: true });
    await server.modules.supervisor.pass();
    await new Promise((r) => setTimeout(r, 500));
    expect((await c.get(id)).counts).toMatchObject({ queued: 2, submitting: 0, delivered: 0 });

    clock.set(new Date('2026-11-23T12:00:00Z')); // 09:00 in São Paulo
    await server.modules.supervisor.pass();
    const done = await c.waitFor(id);
    expect(done).toMatchObject({ status: 'COMPLETED', waitingWindow: false, counts: { delivered: 2 } });
  });

  it('starts a schedule that passed while Ecoa was down, inside its window', async () => {
    clock.set(new Date('2026-11-24T13:00:00Z')); // Tuesday 10:00
    const user = await userWithCredits(server, 10);
    const c = api(server, user.token);
    const list = await importList(server, user.token, [{ phone: mobile() }]);
    const id = await c.create({
      name: 'Agendada',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Lembrete' },
      schedule: '2026-11-24T15:00:00-03:00',
    });
    const scheduled = await c.move(id, 'start');
    expect(scheduled).toMatchObject({ status: 'SCHEDULED', credits: { reserved: 1 }, startedAt: null });
    await server.modules.supervisor.pass();
    expect((await c.get(id)).status).toBe('SCHEDULED');

    // Ecoa "was down" from before 15:00 until 18:30: the first pass after that starts it.
    clock.set(new Date('2026-11-24T21:30:00Z'));
    await server.modules.supervisor.pass();
    const done = await c.waitFor(id);
    expect(done).toMatchObject({ status: 'COMPLETED', counts: { delivered: 1 } });
    expect(done.startedAt).toBe('2026-11-24T21:30:00.000Z');
  });

  it('never sends a recipient who opted out after the start (credits come back)', async () => {
    clock.set(new Date('2026-11-25T13:00:00Z'));
    const user = await userWithCredits(server, 10);
    const c = api(server, user.token);
    const stays = mobile();
    const leaves = mobile();
    const list = await importList(server, user.token, [{ phone: stays }, { phone: leaves }]);
    const id = await c.create({
      name: 'Sair',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Oi' },
      schedule: '2026-11-25T11:00:00-03:00',
    });
    expect((await c.move(id, 'start')).total).toBe(2);
    // Between the start and the sending, the number asks to stop.
    const optOut = await c.call('POST', '/api/v1/opt-outs', { phones: [leaves] });
    expect(optOut.statusCode, optOut.body).toBeLessThan(300);
    clock.set(new Date('2026-11-25T14:00:00Z'));
    await server.modules.supervisor.pass();
    const done = await c.waitFor(id);
    expect(done).toMatchObject({
      status: 'COMPLETED',
      counts: { delivered: 1, optedOut: 1 },
      credits: { reserved: 2, used: 1, released: 1 },
    });
  });
});
