import { describe, expect, it } from 'vitest';
import type { InboundEvent } from '../../../provider.ts';
import { phone, sms, startPair, waitFor } from '../smpp.test-support.ts';

describe('the SMSC simulator HTTP control API', () => {
  it('counts, resets, takes options, sends MO and drops binds over HTTP', async () => {
    const { sim, provider, events } = await startPair({ httpPort: 0 });
    const base = `http://127.0.0.1:${sim.httpPort}/__simulator`;
    const post = (path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const to = phone();
    await provider.submit(sms(to, 'contado'));
    const counters = await (await fetch(`${base}/counters`)).json();
    expect(counters).toMatchObject({
      submits: 1,
      messages: 1,
      bound: 1,
      perDestination: { [to.slice(1)]: { parts: 1 } },
    });

    expect((await post('/reset')).status).toBe(200);
    const afterReset = (await (await fetch(`${base}/counters`)).json()) as { perDestination: object };
    expect(afterReset).toMatchObject({ submits: 0, messages: 0 });
    expect(afterReset.perDestination).toEqual({});

    const options = (await (await post('/options', { rejectStatus: 0x0b })).json()) as { rejectStatus: number };
    expect(options.rejectStatus).toBe(0x0b);
    await expect(provider.submit(sms(phone(), 'recusada'))).rejects.toMatchObject({ reason: 'SMPP_0x0000000B' });
    expect((await post('/options', [1])).status).toBe(400);

    const mo = await post('/mo', { from: '5511987654321', to: '28888', text: 'Quero saber mais' });
    expect(await mo.json()).toEqual({ parts: 1, statuses: [0] });
    expect(events.find((e): e is InboundEvent => e.type === 'inbound')).toMatchObject({
      from: '+5511987654321',
      text: 'Quero saber mais',
    });
    expect((await post('/mo', { from: '1' })).status).toBe(400);

    expect((await post('/drop')).status).toBe(200);
    await waitFor('the adapter to see the drop', () => !provider.health().connected);
    expect(provider.health().lastError?.message).toMatch(/SMPP bind lost/);
    await provider.ready();
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
  });
});
