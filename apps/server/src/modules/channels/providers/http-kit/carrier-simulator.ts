/**
 * What the RCS and WhatsApp simulators share around their own API: the runtime options (checked,
 * changed over the control API), the throughput bucket, the webhook deliveries owed, the
 * counters, the latency before each answer, the fate drawn per number, and the loopback server
 * with its `/__simulator/*` control API. Each simulator adds its send endpoint, its wire format
 * and its signing.
 */
import { z } from 'zod';
import {
  controlRoute,
  DeliveryQueue,
  fractionOf,
  listen,
  pickWeighted,
  type SimHandler,
  type SimulatorAddress,
  sleep,
  TokenBucket,
} from './simulator-kit.ts';
import { initialRuntimeOptions, type SendCounters, SendTally } from './simulator-tally.ts';

/** The runtime options every carrier simulator has. */
type CommonRuntimeOptions = {
  callbackUrl: string | null;
  latencyMs: number;
  throughputPerSecond: number | null;
  outcomeMix: Record<string, number>;
};

export type PostResult = { delivered: boolean; status: number };

/** A user's message sent on demand (`POST /__simulator/inbound`); `from` is checked by `fromPattern`. */
export type InboundInput = { from: string; text: string };

/** The fates a simulator's `outcomeMix` weighs. */
type FateOf<Options> = Options extends { outcomeMix: infer Mix } ? keyof Mix & string : never;

/** A running carrier simulator, as tests, the control API and `npm run simulators` drive it. */
export type CarrierSimulator<Config, Options, Counters> = {
  url: string;
  /** The provider's configuration pointing at this simulator. */
  config: Config;
  counters(): Counters;
  reset(): void;
  setOptions(patch: Partial<Options>): void;
  /** A user writes to the business: posted to the webhook at once. */
  sendInbound(input: InboundInput): Promise<PostResult>;
  /** The carrier's check of the webhook URL (RBM's verification, Meta's handshake). */
  verifyWebhook(): Promise<{ status: number; body: string; verified: boolean }>;
  /** Resolves when every webhook owed so far has been posted. */
  idle(): Promise<void>;
  close(): Promise<void>;
};

export type CarrierSimulatorBase<Options, Counters extends SendCounters> = {
  /** The options now (replaced, never mutated, by `setOptions`). */
  readonly options: Options;
  readonly tally: SendTally<Counters>;
  readonly bucket: TokenBucket;
  readonly deliveries: DeliveryQueue;
  /** Counts a call to the send endpoint and waits the configured latency. */
  received(): Promise<void>;
  /** The fate a number gets from the mix when none is set for it (always the same for a number). */
  drawFate(phone: string): FateOf<Options>;
  /** A user's message: counted, posted now in the delivery queue (so `idle()` waits for it), and how it went. */
  postInbound(post: () => Promise<PostResult>): Promise<PostResult>;
  /** The control operations every simulator hands back. */
  handle: {
    counters(): Counters;
    reset(): void;
    setOptions(patch: Partial<Options>): void;
    idle(): Promise<void>;
  };
  /**
   * Serves `routes` on loopback behind the control API; `close` drops the deliveries still
   * owed, then stops the server.
   */
  listen(
    routes: SimHandler,
    control: {
      fromPattern: RegExp;
      sendInbound(input: InboundInput): Promise<PostResult>;
      verifyWebhook(): Promise<{ status: number; body: string }>;
    },
  ): Promise<{ url: string; close(): Promise<void> }>;
};

export function carrierSimulatorBase<Schema extends z.ZodObject, Counters extends SendCounters>(setup: {
  schema: Schema;
  /** All the simulator's options; its runtime ones are picked out of them. */
  fixed: Record<keyof Schema['shape'], unknown> & SimulatorAddress;
  emptyCounters: () => Counters;
  /** What the simulator forgets beside its counters on reset. */
  onReset?: () => void;
}): CarrierSimulatorBase<z.infer<Schema>, Counters> {
  type Options = z.infer<Schema> & CommonRuntimeOptions;
  const { schema, fixed } = setup;
  let options = initialRuntimeOptions(schema, fixed) as Options;
  const bucket = new TokenBucket(options.throughputPerSecond);
  const deliveries = new DeliveryQueue();
  const tally = new SendTally(setup.emptyCounters);

  const handle = {
    counters: () => tally.snapshot(),
    reset() {
      tally.reset();
      setup.onReset?.();
    },
    setOptions(patch: Partial<Options>) {
      options = schema.parse({ ...options, ...patch }) as Options;
      if ('throughputPerSecond' in patch) bucket.setRate(options.throughputPerSecond);
    },
    idle: () => deliveries.idle(),
  };

  return {
    get options() {
      return options;
    },
    tally,
    bucket,
    deliveries,
    async received() {
      tally.request();
      if (options.latencyMs > 0) await sleep(options.latencyMs);
    },
    drawFate: (phone) => pickWeighted(options.outcomeMix, fractionOf(phone)) as FateOf<z.infer<Schema>>,
    async postInbound(post) {
      tally.counters.inbound++;
      let result: PostResult = { delivered: false, status: 0 };
      await deliveries.run(async () => {
        result = await post();
      });
      return result;
    },
    handle,
    async listen(routes, control) {
      const inbound = z.object({ from: z.string().regex(control.fromPattern), text: z.string().min(1).max(4096) });
      const server = await listen(
        async (request) =>
          (await controlRoute(request, {
            counters: handle.counters,
            reset: handle.reset,
            setOptions: (patch) => handle.setOptions(schema.partial().parse(patch) as Partial<Options>),
            inbound: async (body) => {
              await control.sendInbound(inbound.parse(body));
            },
            verifyWebhook: control.verifyWebhook,
          })) ?? routes(request),
        { host: fixed.host, port: fixed.port },
      );
      return {
        url: server.url,
        async close() {
          await deliveries.close();
          await server.close();
        },
      };
    },
  };
}
