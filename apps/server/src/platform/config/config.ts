import { isIP } from 'node:net';
import path from 'node:path';
import type { CardPaymentMode } from '@ecoa/shared';
import { z } from 'zod';

/**
 * The runtime contract of the blueprint (section 2), parsed once at start.
 * Nothing else in the server reads `process.env`: everything receives a `Config`.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().refine(isPostgresUrl, 'must be a postgres:// or postgresql:// URL with a host').optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  ADMIN_EMAIL: z.email().optional(),
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\/[^/]+/.test(v), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  CHECKOUT_TEST_MODE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  SMPP_URL: z
    .string()
    .refine((v) => /^smpps?:\/\/[^:@/]+:[^@/]*@[^:/]+:\d+\/?$/.test(v), 'must be smpp://system_id:password@host:port')
    .optional(),
  SUPPORT_WHATSAPP: z
    .string()
    .regex(/^\d{12,13}$/, 'must be the international number in digits, e.g. 5511999999999')
    .default('5511999999999'),
  TRUST_PROXY: z
    .string()
    .refine(
      isTrustProxy,
      'must be true, false, or a comma-separated list of loopback, linklocal, uniquelocal, IPs or CIDRs',
    )
    .default('loopback'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
});

function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** `true`/`false`, or proxy-addr's list: named ranges, addresses and CIDRs. */
function isTrustProxy(value: string): boolean {
  if (value === 'true' || value === 'false') return true;
  return value.split(',').every((raw) => {
    const entry = raw.trim();
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
    const [address = '', bits, ...rest] = entry.split('/');
    if (rest.length > 0 || isIP(address) === 0) return false;
    if (bits === undefined) return true;
    const max = isIP(address) === 4 ? 32 : 128;
    return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
  });
}

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  adminEmail: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Keys the login-code hashes. Unset → a random secret kept in `DATA_DIR/auth-secret`. */
  authSecret: string | undefined;
  stripe: { secretKey: string; webhookSecret: string | undefined; apiBase: string | undefined } | undefined;
  /**
   * How card payments work: `stripe` with STRIPE_SECRET_KEY; else the built-in test checkout
   * (`test`, credits without a charge) only for a local trial (PUBLIC_URL on a loopback address)
   * or with CHECKOUT_TEST_MODE=true; otherwise `unavailable`, so a public server that forgot
   * the key never lets its users mint balance.
   */
  cardPayments: CardPaymentMode;
  smppUrl: string | undefined;
  supportWhatsapp: string;
  /**
   * Which direct peers may set X-Forwarded-For (the client IP behind the abuse limits). Default
   * `loopback`: a reverse proxy on the same machine; a client reaching the server directly can
   * no longer pick its own IP to dodge the per-IP limits.
   */
  trustProxy: boolean | string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  env: z.infer<typeof envSchema>['NODE_ENV'];
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError naming every bad variable. Empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const value = present[name];
      return `${name}: ${issue.message}${value === undefined ? '' : ` (got "${redact(name, value)}")`}`;
    });
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const testCheckout = e.CHECKOUT_TEST_MODE === 'true' || isLoopbackUrl(publicUrl);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Ecoa <nao-responda@ecoa.local>',
    authSecret: e.AUTH_SECRET,
    stripe: e.STRIPE_SECRET_KEY
      ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE }
      : undefined,
    cardPayments: e.STRIPE_SECRET_KEY ? 'stripe' : testCheckout ? 'test' : 'unavailable',
    smppUrl: e.SMPP_URL,
    supportWhatsapp: e.SUPPORT_WHATSAPP,
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    env: e.NODE_ENV,
  };
}

/** Whether a URL's host is this machine only: `localhost`, 127.0.0.0/8 or ::1 (a local trial). */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** Secrets never reach the logs, not even when they are wrong. */
function redact(name: string, value: string): string {
  if (/SECRET|PASSWORD|KEY/.test(name)) return '***';
  return value.replace(/\/\/([^:@/]+):([^@/]*)@/, '//$1:***@');
}
