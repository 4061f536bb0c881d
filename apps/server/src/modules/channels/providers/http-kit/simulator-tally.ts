/**
 * What every HTTP carrier simulator counts and how its webhooks behave: calls, refusals,
 * messages taken and repeated, per destination, webhook posts; and the options that make its
 * webhooks misbehave (doubled, out of order, retried, badly signed), checked the same way.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { type DeliveryQueue, type DestinationCount, deliverWebhook, PerSecondPeak, sleep } from './simulator-kit.ts';

export type CallbackCounts = { delivered: number; failed: number; lastFailureStatus: number | null };

export type SendCounters = {
  /** Every call to the send endpoint. */
  requests: number;
  /** The most calls to the send endpoint in any one second (sliding), refused ones included. */
  maxRequestsPerSecond: number;
  /** Messages taken. */
  accepted: number;
  /** Refused calls by the carrier's own code (an HTTP status for RBM, a Graph error code for WhatsApp). */
  rejected: Record<string, number>;
  /** Calls repeating a message already taken, or the same content to the same number. */
  duplicates: number;
  destinations: Record<string, DestinationCount>;
  /** Webhook posts: taken (2xx) or not (after the retries). */
  callbacks: CallbackCounts;
  /** Users' messages posted on demand. */
  inbound: number;
};

export function emptySendCounters(): SendCounters {
  return {
    requests: 0,
    maxRequestsPerSecond: 0,
    accepted: 0,
    rejected: {},
    duplicates: 0,
    destinations: {},
    callbacks: { delivered: 0, failed: 0, lastFailureStatus: null },
    inbound: 0,
  };
}

/** The counters of one simulator, and the content it has taken per number (to tell repeats). */
export class SendTally<Counters extends SendCounters> {
  counters: Counters;
  private seenContent = new Set<string>();
  private requests = new PerSecondPeak();

  constructor(private readonly empty: () => Counters) {
    this.counters = empty();
  }

  destination(to: string): DestinationCount {
    this.counters.destinations[to] ??= { received: 0, accepted: 0, duplicates: 0 };
    return this.counters.destinations[to];
  }

  /** A call to the send endpoint arrived. */
  request(): void {
    this.counters.requests++;
    this.requests.arrival(performance.now());
    this.counters.maxRequestsPerSecond = this.requests.peak;
  }

  refused(code: number | string): void {
    this.counters.rejected[code] = (this.counters.rejected[code] ?? 0) + 1;
  }

  /** A call repeating a message already taken for `to`. */
  repeated(to: string): void {
    this.destination(to).duplicates++;
    this.counters.duplicates++;
  }

  /** A message taken for `to`; the same content to the same number again counts as a repeat. */
  accepted(to: string, content: unknown): void {
    const key = `${to}\u0000${crypto.createHash('sha256').update(JSON.stringify(content)).digest('base64')}`;
    if (this.seenContent.has(key)) this.repeated(to);
    else this.seenContent.add(key);
    this.destination(to).accepted++;
    this.counters.accepted++;
  }

  snapshot(): Counters {
    return structuredClone(this.counters);
  }

  reset(): void {
    this.counters = this.empty();
    this.seenContent = new Set();
    this.requests = new PerSecondPeak();
  }
}

/** How a simulator's webhooks misbehave; a part of each simulator's runtime options. */
export const callbackBehaviour = {
  /** Every webhook posted twice. */
  duplicates: z.boolean(),
  /** A message's webhooks posted last first. */
  outOfOrder: z.boolean(),
  /** Deliveries retried on a 5xx or no answer (carriers retry for days; the simulator briefly). */
  callbackRetries: z.number().int().min(0).max(10),
  /** Signs webhooks with this secret instead of the configured one (a misconfigured account). */
  webhookSecret: z.string().min(1).nullable(),
};
type CallbackBehaviour = { [K in keyof typeof callbackBehaviour]: z.infer<(typeof callbackBehaviour)[K]> };

/** The runtime options a simulator starts with: its schema's fields picked from all its options, checked. */
export function initialRuntimeOptions<Schema extends z.ZodObject>(
  schema: Schema,
  options: Record<keyof Schema['shape'], unknown>,
): z.infer<Schema> {
  return schema.parse(
    Object.fromEntries(Object.keys(schema.shape).map((k) => [k, options[k as keyof Schema['shape']]])),
  );
}

/** POSTs one signed webhook to `callbackUrl` (none: not delivered), counted in `callbacks`. */
export async function postCallback(
  options: { callbackUrl: string | null; callbackRetries: number },
  body: string,
  headers: Record<string, string>,
  callbacks: CallbackCounts,
): Promise<{ delivered: boolean; status: number }> {
  if (!options.callbackUrl) return { delivered: false, status: 0 };
  const result = await deliverWebhook(options.callbackUrl, body, headers, options.callbackRetries, 200);
  if (result.ok) callbacks.delivered++;
  else {
    callbacks.failed++;
    callbacks.lastFailureStatus = result.status;
  }
  return { delivered: result.ok, status: result.status };
}

/**
 * A message's webhooks, in the order they happened unless `outOfOrder`, each twice if
 * `duplicates`: the first after `delayMs`, the next ones `delayMs` apart.
 */
export function scheduleCallbacks<Post>(
  deliveries: DeliveryQueue,
  posts: Post[],
  options: Pick<CallbackBehaviour, 'duplicates' | 'outOfOrder'> & { delayMs: number },
  send: (post: Post) => Promise<unknown>,
): void {
  let ordered = options.outOfOrder ? [...posts].reverse() : posts;
  if (options.duplicates) ordered = ordered.flatMap((post) => [post, post]);
  const delay = options.delayMs;
  deliveries.schedule(delay, async () => {
    for (const [i, post] of ordered.entries()) {
      if (i > 0 && delay > 0) await sleep(delay);
      await send(post);
    }
  });
}
