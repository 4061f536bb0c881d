/**
 * OAuth2 access tokens for a Google service account, the way Google's own libraries get them
 * (the JWT bearer grant, RFC 7523): a JWT signed RS256 with the key file's private key,
 * exchanged at the key file's `token_uri`. A token is kept until shortly before it expires and
 * shared by every send; concurrent sends wait for the one request in flight.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { z } from 'zod';
import type { Clock } from '../../../../platform/clock/clock.ts';
import { ProviderError } from '../../provider.ts';
import { httpExchange, TransportError } from '../http-kit/http-client.ts';
import { isRecord, parseJson } from '../http-kit/webhook-kit.ts';

const serviceAccountKey = z.object({
  type: z.literal('service_account'),
  client_email: z.string().min(3),
  private_key: z.string().includes('PRIVATE KEY'),
  private_key_id: z.string().optional(),
  token_uri: z.url({ protocol: /^https?$/ }),
});
export type ServiceAccountKey = z.infer<typeof serviceAccountKey>;

/** A new token is fetched this long before the old one expires (or at half its life, if shorter). */
const REFRESH_MARGIN_SECONDS = 300;
const JWT_LIFETIME_SECONDS = 3600;

export type TokenSourceOptions = {
  keyFile: string;
  scope: string;
  clock: Clock;
  timeoutMs: number;
  /** An account problem (a bad key, a refused grant) for health's lastError. */
  onAccountError(message: string): void;
};

export class ServiceAccountTokens {
  private cached: { token: string; refreshAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly options: TokenSourceOptions) {}

  /** A valid access token: the cached one, or a new one. Throws a ProviderError. */
  async token(): Promise<string> {
    if (this.cached && this.options.clock.now().getTime() < this.cached.refreshAt) return this.cached.token;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** The API refused this token (revoked, rotated key): the next send gets a new one. */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async fetchToken(): Promise<string> {
    const key = await this.readKey();
    const now = this.options.clock.now().getTime();
    let assertion: string;
    try {
      assertion = signedAssertion(key, this.options.scope, Math.floor(now / 1000));
    } catch {
      throw this.credentialsInvalid('the private key in the service account key file cannot sign');
    }
    const answer = await httpExchange({
      method: 'POST',
      url: key.token_uri,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
      timeoutMs: this.options.timeoutMs,
      maxAnswerBytes: 64 * 1024,
    }).catch((err: unknown) => {
      if (err instanceof TransportError) {
        throw new ProviderError('RCS_TOKEN_UNAVAILABLE', `the token endpoint did not answer (${err.code})`, {
          retryable: true,
        });
      }
      throw err;
    });
    const json = parseJson(answer.body);
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
      const said = isRecord(json) && typeof json.error === 'string' ? json.error : '';
      const reason = /^[a-z_]{1,40}$/.test(said) ? said : `HTTP ${answer.status}`;
      throw this.credentialsInvalid(`the token endpoint refused the service account (${reason})`);
    }
    const token = isRecord(json) ? json.access_token : undefined;
    const expiresIn = isRecord(json) ? json.expires_in : undefined;
    if (answer.status !== 200 || typeof token !== 'string' || !/^[\x21-\x7e]{1,4096}$/.test(token)) {
      throw new ProviderError('RCS_TOKEN_UNAVAILABLE', `the token endpoint answered ${answer.status} without a token`, {
        retryable: true,
      });
    }
    const lifetime = typeof expiresIn === 'number' && expiresIn > 0 ? Math.min(expiresIn, 86_400) : 3600;
    const margin = Math.min(REFRESH_MARGIN_SECONDS, lifetime / 2);
    this.cached = { token, refreshAt: now + (lifetime - margin) * 1000 };
    return token;
  }

  /** Read at each token fetch (about hourly), so a rotated key file is picked up without a restart. */
  private async readKey(): Promise<ServiceAccountKey> {
    let problem: string;
    try {
      const parsed = serviceAccountKey.safeParse(JSON.parse(await fs.readFile(this.options.keyFile, 'utf8')));
      if (parsed.success) return parsed.data;
      problem = 'it is not a service account key';
    } catch (err) {
      problem = (err as NodeJS.ErrnoException).code ?? 'it is not JSON';
    }
    throw this.credentialsInvalid(`the service account key file cannot be used: ${problem}`);
  }

  private credentialsInvalid(message: string): ProviderError {
    this.options.onAccountError(`RCS_CREDENTIALS_INVALID: ${message}`);
    return new ProviderError('RCS_CREDENTIALS_INVALID', message);
  }
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** The JWT a service account presents: RS256 over `header.claims`. */
export function signedAssertion(key: ServiceAccountKey, scope: string, nowSeconds: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) };
  const claims = {
    iss: key.client_email,
    scope,
    aud: key.token_uri,
    iat: nowSeconds,
    exp: nowSeconds + JWT_LIFETIME_SECONDS,
  };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = crypto.sign('RSA-SHA256', Buffer.from(unsigned), key.private_key);
  return `${unsigned}.${base64url(signature)}`;
}
