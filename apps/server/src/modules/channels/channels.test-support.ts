/**
 * For the channels tests: a listening test server (the carriers' simulators post their webhooks
 * to it), a signed-in user with credits of every channel, and helpers to send a test and wait
 * for the carrier's last word.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message } from '@ecoa/shared';
import { expect } from 'vitest';
import { bearer, makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { createTestServer, listeningTestConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { type ChannelsRepository, createChannelsRepository } from './channels.repository.ts';
import type { SimulatorOverrides } from './providers/index.ts';

const FINAL = new Set(['delivered', 'failed', 'expired', 'unknown']);

/** Simulators that always deliver, quickly: tests turn the misbehaviour they need on. */
export const WELL_BEHAVED: SimulatorOverrides = {
  smsc: { outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 }, receiptLatencyMs: 20 },
  whatsapp: {
    outcomeMix: { delivered: 1, read: 0, notOnWhatsApp: 0, reengagement: 0 },
    latencyMs: 0,
    statusDelayMs: 10,
  },
  rcs: { outcomeMix: { delivered: 1, read: 0, notCapable: 0 }, latencyMs: 0, eventDelayMs: 10 },
  voice: { apiLatencyMs: 0, ringMs: 10, callMs: 1200, outcomes: { answered: 1 }, keys: { '1': 1 } },
};

/**
 * `isolated`: a database of its own on PostgreSQL, for tests that settle every interrupted test
 * send (another file's sends in progress would be taken for interrupted).
 */
export async function startChannelsServer(
  simulators: SimulatorOverrides = WELL_BEHAVED,
  options: { isolated?: boolean } = {},
): Promise<RunningServer> {
  return createTestServer({
    config: await listeningTestConfig(),
    listen: true,
    simulators,
    isolated: options.isolated,
  });
}

export type IntegrationEndpoint = Awaited<ReturnType<typeof startIntegrationEndpoint>>;
export type UraRig = {
  server: RunningServer;
  repo: ReturnType<typeof createChannelsRepository>;
  userId: string;
  /** The customer's URA integration endpoint. */
  hook: IntegrationEndpoint;
  close(): Promise<void>;
};

/**
 * For the receipts' tests (with `openBeforeAll`): a channels server on a database of its own (on
 * PostgreSQL the URA answer job is taken by this server only), a user, and the URA's endpoint.
 */
export async function startUraRig(simulators: SimulatorOverrides = WELL_BEHAVED): Promise<UraRig> {
  const server = await startChannelsServer(simulators, { isolated: true });
  const hook = await startIntegrationEndpoint();
  const close = async () => {
    await server.close();
    await hook.close();
  };
  try {
    const { user } = await signUpAndSignIn(server);
    return { server, repo: createChannelsRepository(server.db.db), userId: user.id, hook, close };
  } catch (err) {
    await close();
    throw err;
  }
}

export type ChannelsUser = { id: string; token: string };

/** A user with `credits` of each paid credit type (the welcome bonus has SMS and torpedo). */
export async function userWithCredits(server: RunningServer, credits = 20): Promise<ChannelsUser> {
  const { user, token } = await signUpAndSignIn(server);
  const admin = await signUpAndSignIn(server);
  await makeAdmin(server, admin.user.id);
  for (const type of ['SMSSHORT', 'SMSFLASH', 'URA', 'URAINTEGRATION', 'WHATSAPP', 'RCS'] as const) {
    const current = (await server.modules.ledger.getBalances(user.id))[type].available;
    if (current !== credits) {
      await server.modules.ledger.adjust({
        userId: user.id,
        type,
        amount: credits - current,
        actorUserId: admin.user.id,
        reason: 'test credits',
      });
    }
  }
  return { id: user.id, token };
}

export async function testSend(server: RunningServer, user: ChannelsUser, body: Record<string, unknown>) {
  return server.app.inject({
    method: 'POST',
    url: '/api/v1/channels/test-send',
    headers: bearer(user.token),
    payload: body,
  });
}

export async function getMessage(server: RunningServer, user: ChannelsUser, id: string): Promise<Message> {
  const res = await server.app.inject({ method: 'GET', url: `/api/v1/messages/${id}`, headers: bearer(user.token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Polls until the message has its carrier's last word (or `until` says so). */
export async function waitForMessage(
  server: RunningServer,
  user: ChannelsUser,
  id: string,
  until: (m: Message) => boolean = (m) => FINAL.has(m.status),
  timeoutMs = 20_000,
): Promise<Message> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const message = await getMessage(server, user, id);
    if (until(message)) return message;
    if (Date.now() > deadline)
      throw new Error(`message ${id} still ${message.status}: ${JSON.stringify(message.events)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sends and waits; the send must be accepted. */
export async function sendAndWait(server: RunningServer, user: ChannelsUser, body: Record<string, unknown>) {
  const res = await testSend(server, user, body);
  expect(res.statusCode, res.body).toBe(201);
  return waitForMessage(server, user, res.json().id);
}

export async function credits(server: RunningServer, userId: string, type: string) {
  const balances = await server.modules.ledger.getBalances(userId);
  return balances[type as keyof typeof balances];
}

/** A customer's URA integration endpoint on loopback: every POSTed answer, in arrival order. */
export async function startIntegrationEndpoint(): Promise<{ url: string; answers: unknown[]; close(): Promise<void> }> {
  const answers: unknown[] = [];
  const endpoint = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      answers.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/ura`,
    answers,
    close: () => new Promise<void>((resolve) => endpoint.close(() => resolve())),
  };
}

/**
 * A queued SMS of `parts` parts ('oi' to one mobile, by SMPP) of the user `userId`, created at
 * `at` straight through the repository: the batch tests' message.
 */
export function createSmsMessage(repo: ChannelsRepository, userId: string, parts: number, at: Date) {
  return repo.createMessage(
    {
      userId,
      channel: 'sms_short',
      toPhone: '+5511987650000',
      parts,
      provider: 'smpp',
      content: { kind: 'sms', text: 'oi', flash: false },
    },
    at,
  );
}
