import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../../../../test/hooks.test-support.ts';
import { FAST_CALLS } from '../voice.test-support.ts';
import { startVoiceSimulator, type VoiceSimulator, type VoiceSimulatorCounters } from './voice-simulator.ts';

/** The simulator as a carrier sees it: the calls API and its HTTP control API. */
describe('voice simulator', () => {
  let simulator: VoiceSimulator;
  openBeforeAll(
    () => startVoiceSimulator({ ...FAST_CALLS }),
    (opened) => (simulator = opened),
  );

  function createCall(form: Record<string, string>, auth = simulator.account) {
    const credentials = Buffer.from(`${auth.accountSid}:${auth.authToken}`).toString('base64');
    return fetch(`${simulator.url}/2010-04-01/Accounts/${auth.accountSid}/Calls.json`, {
      method: 'POST',
      headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }
  const valid = (to: string) => ({
    To: to,
    From: simulator.account.from,
    Url: 'http://127.0.0.1:1/twiml',
  });

  it('answers a valid create like the API: 201, a CA sid, queued', async () => {
    const response = await createCall(valid('+5511912340001'));
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      sid: expect.stringMatching(/^CA[0-9a-f]{32}$/),
      status: 'queued',
      to: '+5511912340001',
      direction: 'outbound-api',
    });
    await simulator.idle();
  });

  it("refuses like the API, with Twilio's error JSON", async () => {
    const cases: Array<[Record<string, string>, number, number]> = [
      [{ ...valid('+5511912340002'), To: '' }, 400, 21201],
      [{ ...valid('+5511912340002'), To: '011912340002' }, 400, 21211],
      [{ ...valid('+5511912340002'), From: '' }, 400, 21213],
      [{ ...valid('+5511912340002'), From: '+5511900000000' }, 400, 21210],
      [{ ...valid('+5511912340002'), Url: 'ftp://x' }, 400, 21205],
    ];
    for (const [form, status, code] of cases) {
      const response = await createCall(form);
      expect(response.status, String(code)).toBe(status);
      expect(await response.json()).toEqual({
        code,
        message: expect.any(String),
        more_info: `https://www.twilio.com/docs/errors/${code}`,
        status,
      });
    }
    const unauthorized = await createCall(valid('+5511912340002'), { ...simulator.account, authToken: 'nope' });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ code: 20003 });
    expect(simulator.counters().destinations['+5511912340002']).toBeUndefined();
  });

  it('throttles a burst above its calls per second with 429 / 20429', async () => {
    simulator.setOptions({ callsPerSecond: 3 });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => createCall(valid(`+55119123401${String(i).padStart(2, '0')}`))),
      ).then((responses) => responses.map((r) => r.status));
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(4);
      expect(simulator.counters().totals.throttled).toBe(statuses.filter((s) => s === 429).length);
    } finally {
      simulator.setOptions({ callsPerSecond: 10_000 });
      await simulator.idle();
    }
  });

  it('counts calls per destination, duplicates included, and resets', async () => {
    simulator.reset();
    await createCall(valid('+5511912340003'));
    await createCall(valid('+5511912340003'));
    await simulator.idle();
    const counters = (await (await fetch(`${simulator.url}/__simulator/counters`)).json()) as VoiceSimulatorCounters;
    expect(counters.destinations['+5511912340003']).toMatchObject({ calls: 2 });
    expect(counters.totals).toMatchObject({ calls: 2, duplicates: 1, active: 0 });
    expect((await fetch(`${simulator.url}/__simulator/reset`, { method: 'POST' })).status).toBe(204);
    expect(simulator.counters()).toMatchObject({ destinations: {}, totals: { calls: 0, duplicates: 0 } });
  });

  it('takes options over HTTP, validated', async () => {
    const set = await fetch(`${simulator.url}/__simulator/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ringMs: 5, outcomes: { busy: 1 }, destinations: { '+5511912340004': { keys: '3' } } }),
    });
    expect(set.status).toBe(200);
    expect(simulator.options()).toMatchObject({ ringMs: 5, outcomes: { busy: 1 } });
    const bad = await fetch(`${simulator.url}/__simulator/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ callsPerSecond: -1, outcomes: { exploded: 1 } }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'SIMULATOR_OPTIONS_INVALID' });
    simulator.setOptions({ ...FAST_CALLS, destinations: {} });
  });

  it('draws outcomes from the configured mix', async () => {
    simulator.reset();
    simulator.setOptions({ outcomes: { busy: 1, 'no-answer': 1 } });
    for (let i = 0; i < 20; i++) await createCall(valid('+5511912340005'));
    await simulator.idle();
    const { outcomes } = simulator.counters().destinations['+5511912340005']!;
    expect(Object.keys(outcomes).sort()).toEqual(['busy', 'no-answer']);
    expect(outcomes.busy! + outcomes['no-answer']!).toBe(20);
    simulator.setOptions({ ...FAST_CALLS });
  });

  it("ends a call as no-answer when it rings longer than the caller's Timeout", async () => {
    simulator.setOptions({ ringMs: 1200 });
    try {
      await createCall({ ...valid('+5511912340006'), Timeout: '1' });
      await simulator.idle();
      expect(simulator.counters().destinations['+5511912340006']!.outcomes).toEqual({ 'no-answer': 1 });
    } finally {
      simulator.setOptions({ ...FAST_CALLS });
    }
  });
});
