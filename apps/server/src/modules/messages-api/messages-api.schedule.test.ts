import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import { createManualClock } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';
import { dispatchSettled, mobile, startCampaignsServer } from '../campaigns/campaigns.test-support.ts';
import { getMessage, userWithCredits, waitForMessage } from '../channels/channels.test-support.ts';
import { messagesApi, smsCredits } from './messages-api.test-support.ts';

/** A Monday at 08:00 in São Paulo (UTC−3), before the default window opens, always in the future (see campaigns.schedule.test.ts). */
const MONDAY_8AM = (() => {
  const day = new Date(Date.now() + 7 * 86_400_000);
  day.setUTCHours(11, 0, 0, 0);
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7));
  return day;
})();
const at = (minutesAfter8: number) => new Date(MONDAY_8AM.getTime() + minutesAfter8 * 60_000);

describe(`the sending API's schedule and sending window (${dbKind}, injected clock)`, () => {
  const clock = createManualClock(MONDAY_8AM);
  let server: RunningServer;
  openBeforeAll(
    () => startCampaignsServer({ clock }),
    (opened) => (server = opened),
  );

  it('a message scheduled for 08:30 waits for its time, then for the 09:00 window, then is delivered', async () => {
    clock.set(MONDAY_8AM);
    const user = await userWithCredits(server, 10);
    const api = messagesApi(server, user.token);
    const submits = () => server.providers.simulators.smsc!.counters().submits;
    const before = submits();

    // No `window`: the campaigns' default, 09:00–21:00 Monday to Saturday.
    const res = await api.send({
      channel: 'sms_short',
      to: mobile(),
      text: 'Bom dia',
      scheduledAt: at(30).toISOString(),
      window: undefined,
    });
    expect(res.statusCode, res.body).toBe(202);
    const { id } = res.data!;
    const { batchId } = await getMessage(server, user, id);
    expect(await smsCredits(server, user.id)).toEqual({ available: 9, reserved: 1, total: 10 });

    await server.modules.supervisor.pass();
    expect((await getMessage(server, user, id)).status).toBe('queued');

    clock.set(at(30)); // its time, outside the window: started, not sent
    await server.modules.supervisor.pass();
    await dispatchSettled(server, batchId!);
    expect((await getMessage(server, user, id)).status).toBe('queued');
    expect(submits()).toBe(before);

    clock.set(at(60)); // 09:00: the window opens
    await server.modules.supervisor.pass();
    expect(await waitForMessage(server, user, id)).toMatchObject({ status: 'delivered' });
    expect(submits() - before).toBe(1);
    await expect.poll(() => smsCredits(server, user.id)).toEqual({ available: 9, reserved: 0, total: 9 });
  });

  it('a scheduled message canceled before its time is never sent, and its batch ends', async () => {
    clock.set(MONDAY_8AM);
    const user = await userWithCredits(server, 10);
    const api = messagesApi(server, user.token);
    const res = await api.send({ channel: 'sms_short', to: mobile(), text: 'Oi', scheduledAt: at(120).toISOString() });
    const { id } = res.data!;
    const { batchId } = await getMessage(server, user, id);
    expect((await api.cancel(id)).statusCode).toBe(200);
    expect(await smsCredits(server, user.id)).toEqual({ available: 10, reserved: 0, total: 10 });

    clock.set(at(120));
    await server.modules.supervisor.pass();
    await dispatchSettled(server, batchId!);
    expect((await getMessage(server, user, id)).status).toBe('canceled');
    const { rows } = await server.db.executeSql('select status from campaigns where id = $1', [batchId]);
    expect(rows).toEqual([{ status: 'COMPLETED' }]);
  });
});
