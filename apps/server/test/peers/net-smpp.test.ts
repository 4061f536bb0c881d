/**
 * Ecoa against an SMSC nobody here wrote: Net::SMPP (Debian's libnet-smpp-perl, installed by
 * .ci/run) plays it (net-smpp-smsc.pl). It answers submits with upper-case hex ids and sends each
 * receipt at once, its receipted_message_id written the way that library writes TLVs (no NUL),
 * the text's id in decimal. Each test send must end with the receipt's word in its row.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChannelsUser,
  testSend,
  userWithCredits,
  waitForMessage,
} from '../../src/modules/channels/channels.test-support.ts';
import type { RunningServer } from '../../src/server.ts';
import { createTestServer, testConfig } from '../server.test-support.ts';

const FIRST_ID = Date.now() * 256 + randomInt(256);
const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'net-smpp-smsc.pl');

/** The Perl SMSC, its output lines as they come, and the port it listens on. */
async function startNetSmppSmsc(): Promise<{ child: ChildProcess; lines: string[]; port: number }> {
  // Ids unique to this run: on PostgreSQL the test database outlives one run (a carrier id seen
  // before belongs to an older message until a new submit takes it).
  const child = spawn('perl', [SCRIPT, '0', FIRST_ID.toString(16).toUpperCase()], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let pending = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the Net::SMPP SMSC exited (${code}): ${stderr.trim() || 'is libnet-smpp-perl installed?'}`)),
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const listening = /^listening (\d+)$/.exec(line);
        if (listening) resolve(Number(listening[1]));
      }
    });
  });
  return { child, lines, port };
}

/**
 * CI installs Net::SMPP and must run this (CI=true); a developer's machine without the Debian
 * package runs the rest of `npm test` and is told here how to run this one too.
 */
const netSmppInstalled = spawnSync('perl', ['-MNet::SMPP', '-e', '1']).status === 0;
if (!netSmppInstalled && !process.env.CI)
  console.warn('net-smpp.test.ts not run: `apt-get install libnet-smpp-perl` to test against Net::SMPP');

describe.runIf(netSmppInstalled || process.env.CI)('Ecoa bound to an SMSC played by Net::SMPP', () => {
  let smsc: Awaited<ReturnType<typeof startNetSmppSmsc>>;
  let server: RunningServer;
  let user: ChannelsUser;

  beforeAll(async () => {
    smsc = await startNetSmppSmsc();
    server = await createTestServer({ config: testConfig({ SMPP_URL: `smpp://ecoa:secret@127.0.0.1:${smsc.port}` }) });
    user = await userWithCredits(server);
  });
  afterAll(async () => {
    await server?.close();
    smsc?.child.kill();
  });

  it('matches each receipt it sends to the message submitted, delivered and undeliverable', async () => {
    const ids: string[] = [];
    for (const to of ['+5511987651001', '+5511987651002']) {
      const res = await testSend(server, user, { channel: 'sms_short', to, text: 'Oferta de hoje' });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const [delivered, undeliverable] = [
      await waitForMessage(server, user, ids[0]!),
      await waitForMessage(server, user, ids[1]!),
    ];
    expect(delivered.status).toBe('delivered');
    expect(undeliverable).toMatchObject({ status: 'failed', reason: 'SMPP_UNDELIV_err_034' });
    const { rows } = await server.db.executeSql(
      'select p.provider_message_id from provider_message_ids p where p.message_id = any($1::uuid[]) order by p.provider_message_id',
      [ids],
    );
    const hex = (n: number) => n.toString(16);
    expect(rows.map((r) => (r as { provider_message_id: string }).provider_message_id)).toEqual([
      hex(FIRST_ID),
      hex(FIRST_ID + 1),
    ]);
    expect(smsc.lines).toEqual(
      expect.arrayContaining([
        'bound ecoa',
        `submitted ${hex(FIRST_ID).toUpperCase()} DELIVRD`,
        `submitted ${hex(FIRST_ID + 1).toUpperCase()} UNDELIV`,
      ]),
    );
    // Each receipt is answered once it is stored: OK (status 0), not to be sent again.
    const answered = () => smsc.lines.filter((l) => l.startsWith('receipt answered'));
    for (let waited = 0; answered().length < 2 && waited < 5000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    expect(answered()).toEqual(['receipt answered 0', 'receipt answered 0']);
  });
});
