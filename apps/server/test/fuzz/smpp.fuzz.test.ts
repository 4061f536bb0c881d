import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderEvent } from '../../src/modules/channels/provider.ts';
import { encodePdu } from '../../src/modules/channels/providers/smpp/pdu.ts';
import { SmppProvider } from '../../src/modules/channels/providers/smpp/smpp.provider.ts';
import { fuzz } from './harness.test-support.ts';
import { mutated, randomBytes } from './mutations.test-support.ts';
import { bodyMutated, HostileSmsc, SMPP_REFUSAL_CODES, smscBytes } from './smpp.test-support.ts';

const BUDGET = { runs: 400, timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000, maxRssGrowthMb: 400 };

/** The SMPP adapter's bind, fed hostile PDUs and receipt texts by a raw TCP "SMSC". */
describe('fuzzing the SMPP adapter', () => {
  const smsc = new HostileSmsc();
  let provider: SmppProvider;
  const events: ProviderEvent[] = [];

  beforeAll(async () => {
    await smsc.start();
    provider = new SmppProvider({
      host: '127.0.0.1',
      port: smsc.port,
      systemId: 'fuzz',
      password: 'fuzz',
      tps: 100,
      window: 10,
      mode: 'simulator',
      reconnect: { initialMs: 5, maxMs: 20 },
    });
    provider.onEvent(async (event) => {
      // Keep a bounded sample: the listener must not be what grows.
      if (events.length < 1000) events.push(event);
    });
    await provider.ready();
  });
  afterAll(async () => {
    await provider?.close();
    await smsc.close();
  });

  it('every PDU an SMSC sends is handled, nacked, refused, or ends the bind; the adapter lives on', async () => {
    const inputs = fc.oneof(
      { weight: 5, arbitrary: bodyMutated(mutated) },
      { weight: 3, arbitrary: mutated(smscBytes) },
      { weight: 1, arbitrary: randomBytes },
    );
    const result = await fuzz(
      {
        name: 'SMPP bind (deliver_sm, receipts, MO, stray PDUs)',
        inputs,
        feed: (b) => smsc.feed(b),
        codes: SMPP_REFUSAL_CODES,
      },
      BUDGET,
    );
    expect(result.runs).toBeGreaterThan(10);
    // Still a working bind after all of it: a clean receipt is reported.
    await smsc.bound();
    await provider.ready();
    events.length = 0;
    const receipt = encodePdu('deliver_sm', 1, {
      esm_class: 0x04,
      short_message: Buffer.from('id:0ABC stat:DELIVRD err:000'),
    });
    expect(await smsc.feed(receipt)).toEqual({ accepted: true });
    expect(events).toEqual([
      expect.objectContaining({ type: 'status', providerMessageId: 'abc', status: 'delivered' }),
    ]);
    expect(provider.health().connected).toBe(true);
  }, 120_000);
});
