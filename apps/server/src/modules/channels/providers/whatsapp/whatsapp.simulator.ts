/**
 * A WhatsApp Cloud API on loopback: `POST /{version}/{phone-number-id}/messages` checks the
 * bearer token and the template (or, within 24 h of the user's message, text) payload and answers like Graph (a wamid, or its error JSON);
 * then it posts signed status webhooks to `callbackUrl` (sent → delivered → read, or failed with
 * 131026/131047), and an inbound text on demand. Counters say what each number received.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { type CarrierSimulator, carrierSimulatorBase } from '../http-kit/carrier-simulator.ts';
import type { SimRequest, SimResponse } from '../http-kit/simulator-kit.ts';
import { emptySendCounters, postCallback, scheduleCallbacks } from '../http-kit/simulator-tally.ts';
import { WHATSAPP_DEFAULT_MESSAGES_PER_SECOND, type WhatsAppConfig } from './whatsapp.provider.ts';
import {
  WHATSAPP_SIMULATOR_DEFAULTS,
  type WhatsAppOutcome,
  type WhatsAppSimulatorCounters,
  type WhatsAppSimulatorOptions,
  type WhatsAppSimulatorRuntimeOptions,
  whatsappSimulatorRuntimeOptions,
} from './whatsapp.simulator-options.ts';
import { graphSend } from './whatsapp.simulator-schema.ts';
import {
  graphError,
  newWamid,
  signWhatsAppBody,
  statusNotification,
  textMessageNotification,
  type WhatsAppWireStatus,
} from './whatsapp.wire.ts';

export { WHATSAPP_SIMULATOR_DEFAULTS } from './whatsapp.simulator-options.ts';

/** WhatsApp's customer-service window. */
const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** `verifyWebhook` is Meta's subscription handshake against the callback URL. */
export type WhatsAppSimulator = CarrierSimulator<
  WhatsAppConfig,
  WhatsAppSimulatorRuntimeOptions,
  WhatsAppSimulatorCounters
>;

/** The HTTP status Graph uses with a code. */
function httpStatusOf(code: number): number {
  if (code === 190) return 401;
  if (code === 131000) return 500;
  if (code === 131016 || code === 2) return 503;
  return 400;
}

const FAILURES = {
  not_on_whatsapp: { code: 131026, title: 'Message undeliverable' },
  reengagement: { code: 131047, title: 'Re-engagement message' },
} as const;

/** The environment that points Ecoa at this simulator (the `WHATSAPP_*` settings). */
export function whatsAppSimulatorEnv(sim: Pick<WhatsAppSimulator, 'config'>): Record<string, string> {
  return {
    WHATSAPP_API_URL: sim.config.apiUrl,
    WHATSAPP_API_VERSION: sim.config.apiVersion,
    WHATSAPP_PHONE_NUMBER_ID: sim.config.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: sim.config.accessToken,
    WHATSAPP_APP_SECRET: sim.config.appSecret,
    WHATSAPP_VERIFY_TOKEN: sim.config.verifyToken,
  };
}

export async function startWhatsAppSimulator(
  overrides: Partial<WhatsAppSimulatorOptions> = {},
): Promise<WhatsAppSimulator> {
  const fixed = { ...WHATSAPP_SIMULATOR_DEFAULTS, ...overrides };
  const sim = carrierSimulatorBase({
    schema: whatsappSimulatorRuntimeOptions,
    fixed,
    emptyCounters: emptySendCounters,
  });
  const { tally } = sim;
  /** When each number last wrote to the business (`sendInbound`): free-form texts need it within 24 h. */
  const lastInboundAt = new Map<string, number>();

  function refuse(code: number, message: string, details?: string, subcode?: number): SimResponse {
    tally.refused(code);
    return { status: httpStatusOf(code), body: graphError(code, message, details, subcode) };
  }

  function postWebhook(document: object): Promise<{ delivered: boolean; status: number }> {
    const body = JSON.stringify(document);
    const signature = signWhatsAppBody(sim.options.webhookSecret ?? fixed.appSecret, body);
    return postCallback(sim.options, body, { 'x-hub-signature-256': signature }, tally.counters.callbacks);
  }

  function scheduleStatuses(wamid: string, recipient: string, fate: Exclude<WhatsAppOutcome, object>): void {
    const steps: { status: WhatsAppWireStatus; error?: { code: number; title: string } }[] =
      fate === 'delivered'
        ? [{ status: 'sent' }, { status: 'delivered' }]
        : fate === 'read'
          ? [{ status: 'sent' }, { status: 'delivered' }, { status: 'read' }]
          : [{ status: 'failed', error: FAILURES[fate] }];
    const now = Math.floor(Date.now() / 1000);
    // Each status carries the time it happened, whatever order it is posted in.
    const posts = steps.map((step, i) =>
      statusNotification({ phoneNumberId: fixed.phoneNumberId, wamid, recipient, timestamp: now + i, ...step }),
    );
    scheduleCallbacks(sim.deliveries, posts, { ...sim.options, delayMs: sim.options.statusDelayMs }, postWebhook);
  }

  async function sendMessage(request: SimRequest, version: string, phoneNumberId: string): Promise<SimResponse> {
    await sim.received();
    if (request.headers.authorization !== `Bearer ${fixed.accessToken}`) {
      return refuse(190, 'Invalid OAuth access token - Cannot parse access token');
    }
    if (version !== fixed.apiVersion || phoneNumberId !== fixed.phoneNumberId) {
      return refuse(100, `Unsupported post request. Object with ID '${phoneNumberId}' does not exist`, undefined, 33);
    }
    let parsed: z.infer<typeof graphSend>;
    try {
      parsed = graphSend.parse(JSON.parse(request.body.toString('utf8')));
    } catch (err) {
      const details = err instanceof z.ZodError ? z.prettifyError(err) : 'the body is not JSON';
      return refuse(100, 'Invalid parameter', details);
    }
    const to = `+${parsed.to.replace(/^\+/, '')}`;
    tally.destination(to).received++;
    if (!sim.bucket.take()) return refuse(130429, 'Rate limit hit', 'Cloud API message throughput has been reached.');
    const fate = sim.options.numberOutcomes[to] ?? pickFate(to);
    if (typeof fate === 'object')
      return refuse(fate.apiError, 'Simulated error', `numberOutcomes says ${fate.apiError}`);
    if (parsed.type === 'text') {
      // Graph's answer to a free-form text outside the customer-service window.
      const wrote = lastInboundAt.get(to);
      if (wrote === undefined || Date.now() - wrote >= SERVICE_WINDOW_MS)
        return refuse(
          131047,
          'Re-engagement message',
          'More than 24 hours have passed since the customer last replied.',
        );
      return accept(to, parsed.to, parsed.text, fate);
    }
    const params = parsed.template.components?.[0]?.parameters.length ?? 0;
    const known = sim.options.knownTemplates;
    if (known && known[parsed.template.name] === undefined) {
      return refuse(
        132001,
        'Template name does not exist in the translation',
        `template name (${parsed.template.name})`,
      );
    }
    if (known && known[parsed.template.name] !== params) {
      return refuse(132000, 'Number of parameters does not match the expected number of params');
    }
    return accept(to, parsed.to, parsed.template, fate);
  }

  function accept(to: string, input: string, content: unknown, fate: Exclude<WhatsAppOutcome, object>): SimResponse {
    tally.accepted(to, content);
    const wamid = newWamid();
    scheduleStatuses(wamid, to.slice(1), fate);
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input, wa_id: to.slice(1) }],
        messages: [{ id: wamid, message_status: 'accepted' }],
      },
    };
  }

  function pickFate(to: string): Exclude<WhatsAppOutcome, object> {
    const picked = sim.drawFate(to);
    return picked === 'notOnWhatsApp' ? 'not_on_whatsapp' : picked;
  }

  const handle = {
    ...sim.handle,
    sendInbound(input: { from: string; text: string }) {
      lastInboundAt.set(`+${input.from.replace(/^\+/, '')}`, Date.now());
      const document = textMessageNotification({
        phoneNumberId: fixed.phoneNumberId,
        from: input.from.replace(/^\+/, ''),
        text: input.text,
        wamid: newWamid(),
        timestamp: Math.floor(Date.now() / 1000),
      });
      return sim.postInbound(() => postWebhook(document));
    },
    async verifyWebhook() {
      if (!sim.options.callbackUrl) throw new Error('no callbackUrl to verify');
      const challenge = String(crypto.randomInt(1, 2 ** 31));
      const url = new URL(sim.options.callbackUrl);
      url.searchParams.set('hub.mode', 'subscribe');
      url.searchParams.set('hub.verify_token', fixed.verifyToken);
      url.searchParams.set('hub.challenge', challenge);
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      const body = await res.text();
      return { status: res.status, body, verified: res.status === 200 && body === challenge };
    },
  };

  const server = await sim.listen(
    async (request) => {
      const route = /^\/(v\d+\.\d+)\/(\d+)\/messages$/.exec(request.path);
      if (request.method === 'POST' && route) return sendMessage(request, route[1]!, route[2]!);
      return refuse(100, 'Unsupported request - method type or path unknown', undefined, 2500);
    },
    { fromPattern: /^\+?\d{8,15}$/, sendInbound: handle.sendInbound, verifyWebhook: handle.verifyWebhook },
  );

  return {
    url: server.url,
    config: {
      apiUrl: server.url,
      apiVersion: fixed.apiVersion,
      phoneNumberId: fixed.phoneNumberId,
      accessToken: fixed.accessToken,
      appSecret: fixed.appSecret,
      verifyToken: fixed.verifyToken,
      messagesPerSecond: sim.options.throughputPerSecond ?? WHATSAPP_DEFAULT_MESSAGES_PER_SECOND,
    },
    ...handle,
    close: server.close,
  };
}
