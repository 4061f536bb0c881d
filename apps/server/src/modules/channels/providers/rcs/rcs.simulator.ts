/**
 * An RCS Business Messaging API on loopback: a token endpoint for the service account it
 * writes out, `POST /v1/phones/{E.164}/agentMessages?messageId&agentId` checking the token,
 * the agent, the UUID messageId and the AgentMessage shape (Google's limits), idempotent by
 * messageId exactly like RBM (a repeat is 409 ALREADY_EXISTS and never delivered again), some
 * numbers without RCS (404), a per-agent quota (429); then signed events to `callbackUrl`
 * (DELIVERED, READ) and a user's text on demand.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { type CarrierSimulator, carrierSimulatorBase } from '../http-kit/carrier-simulator.ts';
import type { SimRequest, SimResponse } from '../http-kit/simulator-kit.ts';
import { emptySendCounters, postCallback, scheduleCallbacks } from '../http-kit/simulator-tally.ts';
import { RCS_DEFAULT_MESSAGES_PER_SECOND, type RcsConfig } from './rcs.provider.ts';
import { FakeGoogleOAuth, TOKEN_PATH } from './rcs.simulator-oauth.ts';
import {
  RCS_SIMULATOR_DEFAULTS,
  type RcsOutcome,
  type RcsSimulatorCounters,
  type RcsSimulatorOptions,
  type RcsSimulatorRuntimeOptions,
  rcsSimulatorRuntimeOptions,
} from './rcs.simulator-options.ts';
import { rbmAgentMessage } from './rcs.simulator-schema.ts';
import { googleError, type RbmEventType, rbmDelivery, userEvent, userMessage } from './rcs.wire.ts';

export { RCS_SIMULATOR_DEFAULTS } from './rcs.simulator-options.ts';

/** The config's key file is the one it wrote; `verifyWebhook` is RBM's `{clientToken, secret}` check. */
export type RcsSimulator = CarrierSimulator<RcsConfig, RcsSimulatorRuntimeOptions, RcsSimulatorCounters> & {
  /** Every access token stops working (as after a key rotation). */
  revokeTokens(): void;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const STATUS_TEXT: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  429: 'RESOURCE_EXHAUSTED',
};

export async function startRcsSimulator(overrides: Partial<RcsSimulatorOptions> = {}): Promise<RcsSimulator> {
  const fixed = { ...RCS_SIMULATOR_DEFAULTS, ...overrides };
  let takenIds = new Set<string>();
  let oauth: FakeGoogleOAuth | undefined;
  const sim = carrierSimulatorBase({
    schema: rcsSimulatorRuntimeOptions,
    fixed,
    emptyCounters,
    onReset: () => {
      takenIds = new Set();
    },
  });
  const { tally } = sim;

  function refuse(status: number, message: string, name = STATUS_TEXT[status] ?? 'INTERNAL'): SimResponse {
    tally.refused(status);
    return { status, body: googleError(status, name, message) };
  }

  function post(payload: object): Promise<{ delivered: boolean; status: number }> {
    const { body, signature } = rbmDelivery(sim.options.webhookSecret ?? fixed.webhookToken, fixed.agentId, payload);
    return postCallback(sim.options, body, { 'x-goog-signature': signature }, tally.counters.callbacks);
  }

  function scheduleEvents(phone: string, messageId: string, fate: 'delivered' | 'read'): void {
    const types: RbmEventType[] = fate === 'read' ? ['DELIVERED', 'READ'] : ['DELIVERED'];
    const now = Date.now();
    const events = types.map((type, i) =>
      userEvent({ agentId: fixed.agentId, phone, messageId, type, at: new Date(now + i * 1000) }),
    );
    scheduleCallbacks(sim.deliveries, events, { ...sim.options, delayMs: sim.options.eventDelayMs }, post);
  }

  async function createMessage(request: SimRequest, rawPhone: string): Promise<SimResponse> {
    await sim.received();
    if (!oauth?.authorised(request.headers.authorization)) {
      return refuse(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
    }
    const phone = safeDecode(rawPhone);
    if (!phone || !/^\+[1-9]\d{7,14}$/.test(phone)) return refuse(400, `Invalid phone number: ${rawPhone}`);
    if (request.query.get('agentId') !== fixed.agentId) return refuse(403, 'The caller does not have permission');
    const messageId = request.query.get('messageId') ?? '';
    if (!UUID.test(messageId)) return refuse(400, 'messageId must be a UUID');
    let message: z.infer<typeof rbmAgentMessage>;
    try {
      message = rbmAgentMessage.parse(JSON.parse(request.body.toString('utf8')));
    } catch (err) {
      return refuse(
        400,
        err instanceof z.ZodError ? `Invalid AgentMessage: ${z.prettifyError(err)}` : 'Invalid JSON payload received.',
      );
    }
    tally.destination(phone).received++;
    if (!sim.bucket.take()) return refuse(429, 'Quota exceeded for quota metric agent messages per second');
    if (takenIds.has(messageId)) {
      tally.repeated(phone);
      return refuse(409, `Message with ID ${messageId} already exists`);
    }
    const fate: RcsOutcome = sim.options.numberOutcomes[phone] ?? pickFate(phone);
    if (fate === 'not_capable') return refuse(404, 'Requested entity was not found.');
    if (typeof fate === 'object') return refuse(fate.httpError, 'Simulated error', fate.status);
    takenIds.add(messageId);
    tally.accepted(phone, message);
    scheduleEvents(phone, messageId, fate);
    return {
      status: 200,
      body: { name: `phones/${phone}/agentMessages/${messageId}`, sendTime: new Date().toISOString(), ...message },
    };
  }

  function pickFate(phone: string): 'delivered' | 'read' | 'not_capable' {
    const picked = sim.drawFate(phone);
    return picked === 'notCapable' ? 'not_capable' : picked;
  }

  const handle = {
    ...sim.handle,
    revokeTokens: () => oauth?.revokeAll(),
    sendInbound: (input: { from: string; text: string }) =>
      sim.postInbound(() =>
        post(userMessage({ agentId: fixed.agentId, phone: input.from, text: input.text, at: new Date() })),
      ),
    async verifyWebhook() {
      const { callbackUrl } = sim.options;
      if (!callbackUrl) throw new Error('no callbackUrl to verify');
      const secret = crypto.randomBytes(12).toString('hex');
      const res = await fetch(callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-webhook-type': 'verification' },
        body: JSON.stringify({ clientToken: fixed.webhookToken, secret }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = await res.text();
      return { status: res.status, body, verified: res.status === 200 && body === secret };
    },
  };

  const server = await sim.listen(
    async (request) => {
      if (request.method === 'POST' && request.path === TOKEN_PATH) {
        tally.counters.tokenRequests++;
        const answer = oauth!.grant(request.body, sim.options.tokenLifetimeSeconds);
        if (answer.status === 200) tally.counters.tokensIssued++;
        return answer;
      }
      const route = /^\/v1\/phones\/([^/]+)\/agentMessages$/.exec(request.path);
      if (request.method === 'POST' && route) return createMessage(request, route[1]!);
      return refuse(404, `The requested URL ${request.path} was not found on this server.`);
    },
    { fromPattern: /^\+\d{8,15}$/, sendInbound: handle.sendInbound, verifyWebhook: handle.verifyWebhook },
  );
  oauth = new FakeGoogleOAuth(fixed.clientEmail, `${server.url}${TOKEN_PATH}`, fixed.keyFile);

  return {
    url: server.url,
    config: {
      apiUrl: server.url,
      agentId: fixed.agentId,
      serviceAccountFile: oauth.keyFile,
      webhookToken: fixed.webhookToken,
      messagesPerSecond: sim.options.throughputPerSecond ?? RCS_DEFAULT_MESSAGES_PER_SECOND,
    },
    ...handle,
    async close() {
      await server.close();
      oauth?.close();
    },
  };
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function emptyCounters(): RcsSimulatorCounters {
  return { ...emptySendCounters(), tokenRequests: 0, tokensIssued: 0 };
}
