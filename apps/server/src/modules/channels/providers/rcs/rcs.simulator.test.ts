import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { closedAfterEach, simulatorControl } from '../http-kit/carrier-rig.test-support.ts';
import { type RcsRig, startRcsRig } from './rcs.test-support.ts';

const rig = closedAfterEach(startRcsRig);

const control = (r: RcsRig, path: string, body?: unknown) => simulatorControl(r.simulator.url, path, body);

describe('RCS simulator: the RBM fake refuses what RBM refuses', () => {
  it('without a token from its token endpoint: 401 UNAUTHENTICATED', async () => {
    const r = await rig();
    const res = await fetch(
      `${r.simulator.url}/v1/phones/+5511999995001/agentMessages?messageId=${randomUUID()}&agentId=${r.simulator.config.agentId}`,
      {
        method: 'POST',
        headers: { authorization: 'Bearer made-up' },
        body: JSON.stringify({ contentMessage: { text: 'x' } }),
      },
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 401, status: 'UNAUTHENTICATED', message: expect.any(String) } });
  });

  it('its token endpoint refuses a grant that is not a JWT signed by the service account', async () => {
    const r = await rig();
    const res = await fetch(`${r.simulator.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a.b.c',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
    expect(r.simulator.counters()).toMatchObject({ tokenRequests: 1, tokensIssued: 0 });
  });
});

describe('RCS simulator: the control API', () => {
  it('counters, options, an inbound message, the verification and reset over HTTP', async () => {
    const r = await rig({ numberOutcomes: { '+5511999995002': 'read' } });
    await r.provider.submit({
      id: randomUUID(),
      channel: 'rcs',
      to: '+5511999995002',
      content: { kind: 'rcs', text: 'Oi' },
    });
    await r.simulator.idle();
    expect(await (await control(r, 'counters')).json()).toMatchObject({
      requests: 1,
      accepted: 1,
      tokenRequests: 1,
      callbacks: { delivered: 2, failed: 0 },
      destinations: { '+5511999995002': { received: 1, accepted: 1, duplicates: 0 } },
    });
    expect((await control(r, 'options', { outcomeMix: { delivered: 1, read: 0, notCapable: 0 } })).status).toBe(200);
    expect((await control(r, 'options', { outcomeMix: { delivered: 'many' } })).status).toBe(400);
    expect((await control(r, 'inbound', { from: '+5511999995003', text: 'Quero' })).status).toBe(200);
    expect(r.events.at(-1)).toMatchObject({ type: 'inbound', from: '+5511999995003', text: 'Quero' });
    expect(await (await control(r, 'verify-webhook')).json()).toMatchObject({ status: 200, verified: true });
    expect((await control(r, 'reset')).status).toBe(200);
    expect(await (await control(r, 'counters')).json()).toMatchObject({ requests: 0, accepted: 0, destinations: {} });
  });
});
