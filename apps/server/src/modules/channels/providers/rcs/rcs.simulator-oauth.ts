/**
 * The simulator's stand-in for Google's OAuth2 token endpoint: it owns a service account (an
 * RSA key pair and the JSON key file whose token_uri points at it), checks JWT bearer grants
 * the way Google does (RS256 signature, issuer, audience, scope, times) and issues access
 * tokens that expire.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SimResponse } from '../http-kit/simulator-kit.ts';
import { RBM_SCOPE } from './rcs.wire.ts';

export const TOKEN_PATH = '/token';
const CLOCK_SKEW_SECONDS = 300;

/**
 * One key pair per process: generating RSA keys costs a few hundred milliseconds, and the
 * simulators of one process may share a service account.
 */
let keyPair: crypto.KeyPairKeyObjectResult | undefined;
function simulatorKeyPair(): crypto.KeyPairKeyObjectResult {
  keyPair ??= crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return keyPair;
}

export class FakeGoogleOAuth {
  private readonly publicKey: crypto.KeyObject;
  private readonly issued = new Map<string, number>();
  readonly keyFile: string;
  private readonly ownsKeyDir: string | undefined;

  constructor(
    private readonly clientEmail: string,
    private readonly tokenUri: string,
    keyFile: string | null,
  ) {
    const { publicKey, privateKey } = simulatorKeyPair();
    this.publicKey = publicKey;
    this.ownsKeyDir = keyFile ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-rcs-simulator-'));
    this.keyFile = keyFile ?? path.join(this.ownsKeyDir!, 'service-account.json');
    const key = {
      type: 'service_account',
      project_id: 'ecoa-simulator',
      private_key_id: crypto.randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: '100000000000000000001',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: tokenUri,
    };
    fs.writeFileSync(this.keyFile, JSON.stringify(key, null, 2), { mode: 0o600 });
  }

  /** `POST /token` with `grant_type=…jwt-bearer&assertion=<JWT>`. */
  grant(body: Buffer, lifetimeSeconds: number): SimResponse {
    const form = new URLSearchParams(body.toString('utf8'));
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return invalid('unsupported_grant_type', 'Invalid grant_type');
    }
    const problem = this.checkAssertion(form.get('assertion') ?? '');
    if (problem) return invalid('invalid_grant', problem);
    const token = `ya29.sim-${crypto.randomBytes(24).toString('base64url')}`;
    this.issued.set(token, Date.now() + lifetimeSeconds * 1000);
    return { status: 200, body: { access_token: token, expires_in: lifetimeSeconds, token_type: 'Bearer' } };
  }

  /** Whether an `Authorization` header carries a live token. */
  authorised(authorization: string | undefined): boolean {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    const expires = token ? this.issued.get(token) : undefined;
    return expires !== undefined && expires > Date.now();
  }

  /** Every token stops working (a key rotated in the console). */
  revokeAll(): void {
    this.issued.clear();
  }

  close(): void {
    if (this.ownsKeyDir) fs.rmSync(this.ownsKeyDir, { recursive: true, force: true });
  }

  private checkAssertion(jwt: string): string | undefined {
    const parts = jwt.split('.');
    if (parts.length !== 3) return 'Invalid JWT: not three parts';
    const [header, claims] = parts.slice(0, 2).map((p) => {
      try {
        return JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    });
    if (!header || !claims) return 'Invalid JWT: undecodable';
    if (header.alg !== 'RS256') return 'Invalid JWT: alg must be RS256';
    const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
    if (!crypto.verify('RSA-SHA256', signed, this.publicKey, Buffer.from(parts[2]!, 'base64url'))) {
      return 'Invalid JWT Signature.';
    }
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== this.clientEmail) return 'Invalid issuer';
    if (claims.aud !== this.tokenUri) return 'Invalid JWT audience';
    if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(RBM_SCOPE)) return 'Invalid scope';
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return 'Invalid JWT: iat and exp required';
    if (claims.iat > now + CLOCK_SKEW_SECONDS || claims.exp < now - CLOCK_SKEW_SECONDS) {
      return 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe';
    }
    if (claims.exp - claims.iat > 3600) return 'Invalid JWT: lifetime longer than one hour';
    return undefined;
  }
}

function invalid(error: string, description: string): SimResponse {
  return { status: 400, body: { error, error_description: description } };
}
