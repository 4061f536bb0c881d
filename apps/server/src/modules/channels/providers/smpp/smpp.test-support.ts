/**
 * What the SMPP tests share: the real adapter bound to the real simulator over loopback TCP,
 * the events it reported, and a wait that polls a condition (no sleeping for a fixed time).
 */
import { afterEach } from 'vitest';
import { parseSmppUrl } from '../../../../platform/config/config.ts';
import type { OutboundMessage, ProviderEvent } from '../../provider.ts';
import { type SmscSimulator, type SmscSimulatorOptions, startSmscSimulator } from './simulator/smsc-simulator.ts';
import { SmppProvider, type SmppProviderOptions, smppProviderOptions } from './smpp.provider.ts';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export type Pair = { sim: SmscSimulator; provider: SmppProvider; events: ProviderEvent[] };

/** A simulator and an adapter bound to it (fast reconnects, short waits), closed after the test. */
export async function startPair(
  simOptions: Partial<SmscSimulatorOptions> = {},
  adapterOptions: Partial<SmppProviderOptions> = {},
  { bind = true } = {},
): Promise<Pair> {
  const sim = await startSmscSimulator({ httpPort: null, receiptLatencyMs: 20, ...simOptions });
  cleanups.push(() => sim.close());
  const config = parseSmppUrl(sim.url);
  const provider = new SmppProvider({
    ...smppProviderOptions({ ...config, tps: 1000, window: 10 }, 'simulator'),
    reconnect: { initialMs: 20, maxMs: 200 },
    ...adapterOptions,
  });
  cleanups.push(() => provider.close());
  const events: ProviderEvent[] = [];
  provider.onEvent(async (event) => {
    events.push(event);
  });
  if (bind) await provider.ready();
  return { sim, provider, events };
}

/** Polls `condition` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

let messageCount = 0;

export function sms(to: string, text: string, flash = false): OutboundMessage {
  messageCount++;
  return {
    id: `msg-${messageCount}`,
    channel: flash ? 'sms_flash' : 'sms_short',
    to,
    content: { kind: 'sms', text, flash },
  };
}

/** A distinct valid Brazilian mobile per call. */
let phoneCount = 0;
export function phone(): string {
  phoneCount++;
  return `+55119${String(10_000_000 + phoneCount).slice(-8)}`;
}
