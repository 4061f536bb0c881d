/**
 * An HTTP carrier's adapter wired to its simulator over real HTTP, as the tests and the fuzz
 * suite use it: the simulator, the provider pointed at it, the provider's webhook routes served
 * on loopback (the simulator's callback URL), and every event the provider emitted. Each
 * carrier's rig (`rcs.test-support.ts`, `whatsapp.test-support.ts`) only starts its own two.
 */
import { afterEach, expect } from 'vitest';
import { type ChannelProvider, ProviderError, type ProviderEvent } from '../../provider.ts';
import type { CarrierOptions } from './carrier-provider.ts';
import { serveWebhooks, type WebhookServer } from './webhook-server.test-support.ts';

export type CarrierRig<Simulator> = {
  simulator: Simulator;
  provider: ChannelProvider;
  webhooks: WebhookServer;
  /** The webhook URL the simulator posts to. */
  webhookUrl: string;
  events: ProviderEvent[];
  close(): Promise<void>;
};

type RigSimulator<Config> = {
  config: Config;
  setOptions(patch: { callbackUrl: string }): void;
  close(): Promise<void>;
};

/** The provider's options as a rig takes them: any config field may be overridden, the rest is the simulator's. */
export type RigProviderOptions<Config> = Partial<Omit<CarrierOptions<Config>, 'config'>> & { config?: Partial<Config> };

/** A simulator that answers at once, posts at once, never retries and takes any throughput. */
export const QUICK_SIMULATOR = { latencyMs: 0, callbackRetries: 0, throughputPerSecond: null };

/**
 * The provider pointed at `simulator` (in simulator mode), its webhooks served, its events
 * recorded, and the simulator's callbacks pointed at `webhookPath` unless the test chose its own
 * callback URL.
 */
export async function startCarrierRig<Config, Simulator extends RigSimulator<Config>>(parts: {
  simulator: Simulator;
  createProvider(options: CarrierOptions<Config>): ChannelProvider;
  providerOptions: RigProviderOptions<Config>;
  webhookPath: string;
  callbackUrlChosen: boolean;
}): Promise<CarrierRig<Simulator>> {
  const { simulator, providerOptions } = parts;
  const provider = parts.createProvider({
    mode: 'simulator',
    ...providerOptions,
    config: { ...simulator.config, ...providerOptions.config },
  });
  const events: ProviderEvent[] = [];
  provider.onEvent(async (event) => {
    events.push(event);
  });
  const webhooks = await serveWebhooks(provider.name, provider.webhooks);
  const webhookUrl = `${webhooks.baseUrl}${parts.webhookPath}`;
  if (!parts.callbackUrlChosen) simulator.setOptions({ callbackUrl: webhookUrl });
  return {
    simulator,
    provider,
    webhooks,
    webhookUrl,
    events,
    async close() {
      await simulator.close();
      await provider.close();
      await webhooks.close();
    },
  };
}

/**
 * A carrier's rig starter: its simulator made quick (`QUICK_SIMULATOR` and the carrier's own
 * `quick` delays) under the test's options, wired to its provider by `startCarrierRig`.
 */
export function carrierRigStarter<
  Config,
  SimulatorOptions extends { callbackUrl: string | null },
  Simulator extends RigSimulator<Config>,
>(
  startSimulator: (options: Partial<SimulatorOptions>) => Promise<Simulator>,
  quick: Partial<SimulatorOptions>,
  createProvider: (options: CarrierOptions<Config>) => ChannelProvider,
  webhookPath: string,
): (
  simulatorOptions?: Partial<SimulatorOptions>,
  providerOptions?: RigProviderOptions<Config>,
) => Promise<CarrierRig<Simulator>> {
  return async (simulatorOptions = {}, providerOptions = {}) =>
    startCarrierRig({
      simulator: await startSimulator({ ...QUICK_SIMULATOR, ...quick, ...simulatorOptions }),
      createProvider,
      providerOptions,
      webhookPath,
      callbackUrlChosen: simulatorOptions.callbackUrl !== undefined,
    });
}

/** `start`, remembering what it started: each is closed after every test of the file. */
export function closedAfterEach<Args extends unknown[], Started extends { close(): Promise<void> }>(
  start: (...args: Args) => Promise<Started>,
): (...args: Args) => Promise<Started> {
  const started: Started[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });
  return async (...args) => {
    const one = await start(...args);
    started.push(one);
    return one;
  };
}

/** A call to a simulator's `/__simulator/*` control API: `counters` is read with GET, the rest POSTed. */
export function simulatorControl(simulatorUrl: string, path: string, body?: unknown): Promise<Response> {
  const read = body === undefined && path === 'counters';
  return fetch(`${simulatorUrl}/__simulator/${path}`, {
    method: read ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(read ? {} : { body: JSON.stringify(body ?? {}) }),
  });
}

/** The ProviderError a send was refused with (the test fails when it resolved or threw anything else). */
export async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
