import { describe, expect, it } from 'vitest';
import { ProviderError, type SubmitResult } from '../../provider.ts';
import { phone, sms, startPair, waitFor } from './smpp.test-support.ts';

type Outcome = { ok: SubmitResult } | { error: ProviderError };
const settle = (p: Promise<SubmitResult>): Promise<Outcome> =>
  p.then(
    (ok) => ({ ok }),
    (error: ProviderError) => ({ error }),
  );

describe('SMPP adapter ⇄ simulated SMSC: flow control and a failing bind', () => {
  it('never has more submits in flight than the window (counted by the SMSC)', async () => {
    const { sim, provider } = await startPair({ responseLatencyMs: 30 }, { window: 3 });
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => provider.submit(sms(phone(), `janela ${i}`))),
    );
    expect(results).toHaveLength(24);
    expect(sim.counters().maxInFlight).toBe(3);
  });

  it('never sends more submits per second than the TPS limit (counted by the SMSC)', async () => {
    // The simulator stamps arrivals when this (shared, loaded) process reads them: a stall of the
    // event loop after one burst was written makes it look closer to the next. A wider margin
    // than production's 50 ms keeps that from reading as tps + 1; the limiter's exact arithmetic
    // is tested with a manual clock in flow-control.test.ts.
    const { sim, provider } = await startPair({}, { tps: 8, window: 10, tpsMarginMs: 400 });
    await Promise.all(Array.from({ length: 26 }, (_, i) => provider.submit(sms(phone(), `tps ${i}`))));
    const { maxSubmitsPerSecond, submits } = sim.counters();
    expect(submits).toBe(26);
    expect(maxSubmitsPerSecond).toBeLessThanOrEqual(8);
    expect(maxSubmitsPerSecond).toBeGreaterThanOrEqual(4);
    expect(provider.health().tpsLimit).toBe(8);
  });

  it.each([
    ['ESME_RTHROTTLED for a share of submits', { throttleShare: 0.3, throttleStatus: 0x58 }],
    ['ESME_RMSGQFUL for a share of submits', { throttleShare: 0.3, throttleStatus: 0x14 }],
    ['ESME_RTHROTTLED above 5 per second', { throttleAboveTps: 5 }],
  ])('slows down and retries on %s: every message goes once, none fails', async (_name, simOptions) => {
    const { sim, provider } = await startPair(simOptions, { tps: 20, throttleRetryMs: 20 });
    const to = Array.from({ length: 12 }, () => phone());
    const results = await Promise.all(to.map((n, i) => provider.submit(sms(n, `devagar ${i}`))));
    expect(results.every((r) => r.providerMessageIds.length === 1)).toBe(true);
    const counters = sim.counters();
    expect(counters.throttled).toBeGreaterThan(0);
    expect(counters.submits).toBe(12);
    for (const n of to) expect(counters.perDestination[n.slice(1)]).toEqual({ parts: 1, messages: 1, duplicates: 0 });
    expect(provider.stats().throttleAnswers).toBe(counters.throttled);
    expect(provider.stats().lowestTpsLimit).toBeLessThan(20);
  });

  it('fails other refusals with the SMPP status as the reason, retryable only when it may pass later', async () => {
    const { sim, provider } = await startPair({ rejectStatus: 0x0b });
    await expect(provider.submit(sms(phone(), 'x'))).rejects.toMatchObject({
      reason: 'SMPP_0x0000000B',
      message: expect.stringContaining('ESME_RINVDSTADR'),
      options: { retryable: false },
    });
    sim.setOptions({ rejectStatus: 0x08 });
    await expect(provider.submit(sms(phone(), 'x'))).rejects.toMatchObject({
      reason: 'SMPP_0x00000008',
      options: { retryable: true },
    });
  });

  it('reports what was in flight when the bind dropped as sentUnknown, re-sends nothing, reconnects with backoff', async () => {
    const { sim, provider } = await startPair(
      { responseLatencyMs: 80, dropAfterSubmits: 6, refuseBinds: 0 },
      { window: 4, reconnect: { initialMs: 20, maxMs: 1000 } },
    );
    // The SMSC refuses the next two binds after the drop, as one that restarts would.
    sim.setOptions({ refuseBinds: 2 });
    const to = Array.from({ length: 16 }, () => phone());
    const outcomes = await Promise.all(to.map((n, i) => settle(provider.submit(sms(n, `queda ${i}`)))));

    const lost = outcomes.filter((o): o is { error: ProviderError } => 'error' in o);
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.length).toBeLessThanOrEqual(4);
    for (const { error } of lost) {
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ reason: 'SMPP_BIND_LOST', options: { sentUnknown: true } });
    }
    expect(outcomes.filter((o) => 'ok' in o)).toHaveLength(16 - lost.length);

    const counters = sim.counters();
    // Nothing was sent twice: each accepted message reached the SMSC once; a lost one at most once
    // (it may have been read before the drop, or still in the socket when the bind went).
    outcomes.forEach((outcome, i) => {
      const received = counters.perDestination[to[i]!.slice(1)];
      if ('ok' in outcome) expect(received, to[i]).toEqual({ parts: 1, messages: 1, duplicates: 0 });
      else expect(received?.parts ?? 0, to[i]).toBeLessThanOrEqual(1);
    });
    expect(counters.duplicates).toBe(0);
    expect(counters.submits).toBeGreaterThanOrEqual(16 - lost.length + 1);
    expect(counters.drops).toBe(1);
    expect(counters.bindsRefused).toBe(2);
    expect(counters.binds).toBe(2);
    // Each failed attempt waited twice as long as the one before.
    expect(provider.stats().reconnectDelaysMs).toEqual([20, 40, 80]);
    expect(provider.health().connected).toBe(true);
    await expect(provider.submit(sms(phone(), 'depois da queda'))).resolves.toMatchObject({
      providerMessageIds: [expect.any(String)],
    });
  });

  it('holds submits while the bind is down and sends them once it is back', async () => {
    const { sim, provider } = await startPair({}, { reconnect: { initialMs: 50, maxMs: 50 } });
    sim.setOptions({ refuseBinds: 3 });
    sim.dropBinds();
    await waitFor('the adapter to see the drop', () => !provider.health().connected);
    const results = await Promise.all([1, 2, 3].map((i) => provider.submit(sms(phone(), `espera ${i}`))));
    expect(results).toHaveLength(3);
    expect(sim.counters().bindsRefused).toBe(3);
    expect(sim.counters().submits).toBe(3);
  });

  it('fails a submit as retryable when the bind stays down longer than it may wait', async () => {
    const { sim, provider } = await startPair({}, { bindWaitMs: 150, reconnect: { initialMs: 50, maxMs: 50 } });
    sim.setOptions({ refuseBinds: 1_000_000 });
    sim.dropBinds();
    await waitFor('the adapter to see the drop', () => !provider.health().connected);
    await expect(provider.submit(sms(phone(), 'sem bind'))).rejects.toMatchObject({
      reason: 'SMPP_NOT_BOUND',
      options: { retryable: true },
    });
    expect(sim.counters().submits).toBe(0);
  });

  it('keeps an idle bind up with enquire_link where the SMSC drops idle binds', async () => {
    const kept = await startPair({ idleTimeoutMs: 600 }, { enquireLinkMs: 60 });
    await waitFor('enough enquire_links to span several idle timeouts', () => kept.sim.counters().enquireLinks >= 30);
    expect(kept.sim.counters()).toMatchObject({ binds: 1, idleDrops: 0 });
    expect(kept.provider.health().connected).toBe(true);

    // The same SMSC drops a bind that stays silent longer: what the keep-alive prevents.
    const silent = await startPair({ idleTimeoutMs: 600 }, { enquireLinkMs: 60_000 });
    await waitFor('the idle drop', () => silent.sim.counters().idleDrops >= 1);
  });

  it('unbinds on close', async () => {
    const { sim, provider } = await startPair();
    await provider.submit(sms(phone(), 'tchau'));
    await provider.close();
    expect(sim.counters().unbinds).toBe(1);
    expect(provider.health().connected).toBe(false);
    await expect(provider.submit(sms(phone(), 'fechado'))).rejects.toMatchObject({ reason: 'SMPP_CLOSED' });
  });
});
