import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../../platform/clock/clock.ts';
import { closedAfterEach, rejection } from '../http-kit/carrier-rig.test-support.ts';
import { listen } from '../http-kit/simulator-kit.ts';
import { createRcsProvider } from './rcs.provider.ts';
import { type RcsRig, rcsText, startRcsRig } from './rcs.test-support.ts';

const rig = closedAfterEach(startRcsRig);

const sendMany = (r: RcsRig, n: number, prefix: string) =>
  Promise.all(
    Array.from({ length: n }, (_, i) => r.provider.submit(rcsText(`${prefix}${String(i).padStart(2, '0')}`))),
  );

function tempKeyFile(content: object | string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-rcs-key-'));
  const file = path.join(dir, 'key.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('RCS service account tokens (JWT bearer grant against the simulator’s token endpoint)', () => {
  it('one token request serves many sends, concurrent ones included', async () => {
    const r = await rig({ outcomeMix: { delivered: 1, read: 0, notCapable: 0 } });
    await sendMany(r, 20, '+55119444400');
    await sendMany(r, 5, '+55119444401');
    expect(r.simulator.counters()).toMatchObject({ tokenRequests: 1, tokensIssued: 1, accepted: 25 });
  });

  it('a token near its expiry is replaced before it is used', async () => {
    const clock = createManualClock();
    const r = await rig({ tokenLifetimeSeconds: 400, outcomeMix: { delivered: 1, read: 0, notCapable: 0 } }, { clock });
    await r.provider.submit(rcsText('+5511999992001'));
    clock.advance(150_000);
    await r.provider.submit(rcsText('+5511999992002'));
    expect(r.simulator.counters().tokenRequests).toBe(1);
    clock.advance(100_000);
    await r.provider.submit(rcsText('+5511999992003'));
    expect(r.simulator.counters().tokenRequests).toBe(2);
  });

  it('a revoked token is replaced once and the send goes through (same messageId, sent once)', async () => {
    const r = await rig({ outcomeMix: { delivered: 1, read: 0, notCapable: 0 } });
    await r.provider.submit(rcsText('+5511999992004'));
    r.simulator.revokeTokens();
    await r.provider.submit(rcsText('+5511999992005'));
    expect(r.simulator.counters()).toMatchObject({ tokenRequests: 2, accepted: 2, rejected: { 401: 1 } });
  });

  it('a key the token endpoint does not know is RCS_CREDENTIALS_INVALID, not retried, in health', async () => {
    const r = await rig();
    const real = JSON.parse(fs.readFileSync(r.simulator.config.serviceAccountFile, 'utf8'));
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = tempKeyFile({ ...real, private_key: stranger.export({ type: 'pkcs8', format: 'pem' }).toString() });
    const provider = createRcsProvider({ config: { ...r.simulator.config, serviceAccountFile: forged }, mode: 'real' });
    const error = await rejection(provider.submit(rcsText('+5511999992006')));
    expect(error).toMatchObject({ reason: 'RCS_CREDENTIALS_INVALID', options: {} });
    expect(error.message).toContain('invalid_grant');
    expect(provider.health().lastError?.message).toContain('RCS_CREDENTIALS_INVALID');
    expect(r.simulator.counters()).toMatchObject({ tokenRequests: 1, tokensIssued: 0, requests: 0 });
  });

  it.each([
    ['a missing file', path.join(os.tmpdir(), 'no-such-ecoa-key.json')],
    ['a file that is not JSON', tempKeyFile('not json')],
    ['JSON that is not a service account key', tempKeyFile({ type: 'authorized_user' })],
    [
      'a key that cannot sign',
      tempKeyFile({
        type: 'service_account',
        client_email: 'x@y',
        private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
        token_uri: 'http://127.0.0.1:9/token',
      }),
    ],
  ])('%s is RCS_CREDENTIALS_INVALID before any request', async (_, file) => {
    const r = await rig({}, { config: { serviceAccountFile: file } });
    expect(await rejection(r.provider.submit(rcsText('+5511999992007')))).toMatchObject({
      reason: 'RCS_CREDENTIALS_INVALID',
      options: {},
    });
    expect(r.simulator.counters()).toMatchObject({ tokenRequests: 0, requests: 0 });
    expect(r.provider.health().lastError).not.toBeNull();
  });

  it('a token endpoint that does not answer is retryable RCS_TOKEN_UNAVAILABLE', async () => {
    const down = await listen(async () => ({ status: 200 }), { host: '127.0.0.1', port: 0 });
    await down.close();
    const r = await rig();
    const real = JSON.parse(fs.readFileSync(r.simulator.config.serviceAccountFile, 'utf8'));
    const file = tempKeyFile({ ...real, token_uri: `${down.url}/token` });
    const other = await rig({}, { config: { serviceAccountFile: file } });
    expect(await rejection(other.provider.submit(rcsText('+5511999992008')))).toMatchObject({
      reason: 'RCS_TOKEN_UNAVAILABLE',
      options: { retryable: true },
    });
  });

  it('RBM unreachable is retryable RCS_UNREACHABLE (the messageId makes any retry safe)', async () => {
    const down = await listen(async () => ({ status: 200 }), { host: '127.0.0.1', port: 0 });
    await down.close();
    const r = await rig({}, { config: { apiUrl: down.url } });
    expect(await rejection(r.provider.submit(rcsText('+5511999992009')))).toMatchObject({
      reason: 'RCS_UNREACHABLE',
      options: { retryable: true },
    });
    expect(r.provider.health().connected).toBe(false);
  });
});
