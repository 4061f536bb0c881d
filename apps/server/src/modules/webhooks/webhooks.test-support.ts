/**
 * A customer's webhook receiver on loopback (node:http), checking every post with the
 * `standardwebhooks` package: `verify` (signature and timestamp against the real time) when the
 * test runs on the real clock, else the package's own `sign` compared with each signature sent
 * (a test that moves its clock days ahead would fail the package's 5-minute timestamp check).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { asUser } from '../../../test/http.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { startCampaignsServer } from '../campaigns/campaigns.test-support.ts';

export type ReceivedWebhook = {
  id: string;
  timestamp: number;
  signatures: string[];
  body: string;
  payload: { id: string; type: string; data: Record<string, unknown> };
  /** Which of the receiver's secrets verified it (-1: none). */
  verifiedBy: number;
};

export type Receiver = {
  url: string;
  received: ReceivedWebhook[];
  /** The secrets the receiver knows (its verification tries each). */
  secrets: string[];
  /** `up`: 200; `down`: the connection is cut; `error`: 503; `slow`: held until `release()`. */
  mode: 'up' | 'down' | 'error' | 'slow';
  /** Posts held in `slow` mode right now. */
  held: () => number;
  release(): void;
  close(): Promise<void>;
};

export async function startReceiver(options: { strictTimestamp?: boolean } = {}): Promise<Receiver> {
  const held: (() => void)[] = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    secrets: [],
    mode: 'up',
    held: () => held.length,
    release() {
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        receiver.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    if (receiver.mode === 'down') {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      if (receiver.mode === 'error') {
        res.writeHead(503).end('busy');
        return;
      }
      const verifiedBy = receiver.secrets.findIndex((secret) => verifies(secret, headers, body, options));
      const answer = () => {
        receiver.received.push({
          id: headers['webhook-id'],
          timestamp: Number(headers['webhook-timestamp']),
          signatures: headers['webhook-signature'].split(' '),
          body,
          payload: JSON.parse(body),
          verifiedBy,
        });
        res
          .writeHead(verifiedBy >= 0 ? 200 : 401, { 'content-type': 'text/plain' })
          .end(verifiedBy >= 0 ? 'ok' : 'bad signature');
      };
      if (receiver.mode === 'slow') held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

function verifies(
  secret: string,
  headers: Record<string, string>,
  body: string,
  options: { strictTimestamp?: boolean },
): boolean {
  const wh = new Webhook(secret);
  if (options.strictTimestamp) {
    try {
      wh.verify(body, headers);
      return true;
    } catch {
      return false;
    }
  }
  const expected = wh.sign(headers['webhook-id']!, new Date(Number(headers['webhook-timestamp']) * 1000), body);
  return headers['webhook-signature']!.split(' ').includes(expected);
}

export type ServerWithReceiver = { server: RunningServer; receiver: Receiver; close(): Promise<void> };

/**
 * A campaigns server and a receiver checking timestamps against the real time, shared by a test file:
 *
 *   openServerWithReceiver((opened) => ({ server, receiver } = opened));
 */
export function openServerWithReceiver(assign: (opened: ServerWithReceiver) => void): void {
  openBeforeAll(async () => {
    const server = await startCampaignsServer();
    try {
      const receiver = await startReceiver({ strictTimestamp: true });
      return {
        server,
        receiver,
        close: async () => {
          await server.close();
          await receiver.close();
        },
      };
    } catch (err) {
      await server.close();
      throw err;
    }
  }, assign);
}

/**
 * The user with `token` creates a webhook endpoint posting `events` to `receiver`, which learns its
 * secret: the creation's response.
 */
export async function subscribeReceiver(server: RunningServer, token: string, receiver: Receiver, events: string[]) {
  const created = await asUser(
    server,
    token,
  )({
    method: 'POST',
    url: '/api/v1/webhook-endpoints',
    payload: { url: receiver.url, events },
  });
  receiver.secrets = [created.json().secret];
  return created;
}
