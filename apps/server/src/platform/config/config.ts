import { isIP } from 'node:net';
import path from 'node:path';
import { type CardPaymentMode, GTM_CONTAINER_ID_PATTERN } from '@ecoa/shared';
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
    .refine(
      isSmppUrl,
      'must be smpp://system_id:password@host:port, optionally ?tps=<1-100000>&window=<1-1000>&submit_ids=hex|decimal&receipt_ids=hex|decimal',
    )
    .optional(),
  WHATSAPP_API_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com'),
  WHATSAPP_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'must look like v21.0')
    .default('v21.0'),
  WHATSAPP_PHONE_NUMBER_ID: z.string().regex(/^\d+$/, 'must be the numeric phone number id').optional(),
  WHATSAPP_ACCESS_TOKEN: z.string().min(1).optional(),
  WHATSAPP_APP_SECRET: z.string().min(1).optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(1).optional(),
  /** The business number's throughput: the Cloud API's 80 by default, 1000 once Meta raises it. */
  WHATSAPP_MESSAGES_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(80),
  RCS_API_URL: z.url({ protocol: /^https?$/ }).default('https://rcsbusinessmessaging.googleapis.com'),
  RCS_AGENT_ID: z.string().min(1).optional(),
  RCS_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
  RCS_WEBHOOK_TOKEN: z.string().min(1).optional(),
  /** The agent's send quota per second (the RBM console shows it per agent). */
  RCS_MESSAGES_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(100),
  VOICE_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.twilio.com'),
  VOICE_ACCOUNT_SID: z.string().min(1).optional(),
  VOICE_AUTH_TOKEN: z.string().min(1).optional(),
  VOICE_FROM: z
    .string()
    .regex(/^\+\d{10,15}$/, 'must be the caller number in E.164, e.g. +551140000000')
    .optional(),
  /** The calls account's calls per second (Twilio grants 1 by default and raises it on request). */
  VOICE_CALLS_PER_SECOND: z.coerce.number().min(0.1).max(1000).default(1),
  /** Clicks one IP may make on rotating links per minute, per process (abuse). */
  LINK_CLICKS_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /**
   * The embedded SMSC simulator's HTTP control API on this loopback port (its outcomes, receipt
   * latency…: what the e2e tests steer); unset: none. Ignored when SMPP_URL names a real SMSC.
   */
  SMSC_SIMULATOR_CONTROL_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  SUPPORT_WHATSAPP: z
    .string()
    .regex(/^\d{12,13}$/, 'must be the international number in digits, e.g. 5511999999999')
    .default('5511999999999'),
  /** A Google Tag Manager container for the web app's analytics events; unset: none loaded, none allowed by the CSP. */
  GTM_CONTAINER_ID: z
    .string()
    .regex(GTM_CONTAINER_ID_PATTERN, 'must be a Google Tag Manager container id, e.g. GTM-ABC1234')
    .optional(),
  TRUST_PROXY: z
    .string()
    .refine(
      isTrustProxy,
      'must be true, false, or a comma-separated list of loopback, linklocal, uniquelocal, IPs or CIDRs',
    )
    .default('loopback'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['pretty', 'json', 'auto'], { error: 'must be pretty, json or auto' }).default('auto'),
  /** Enables `GET /metrics` (Prometheus), which then requires `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
});

function isSmppUrl(value: string): boolean {
  const match = /^smpps?:\/\/[^:@/]+:[^@/]*@[^:/?]+:\d+\/?(\?.*)?$/.exec(value);
  if (!match) return false;
  const query = new URLSearchParams(match[1]?.slice(1) ?? '');
  const inRange = (name: string, max: number) => {
    const raw = query.get(name);
    return raw === null || (/^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= max);
  };
  const bases = ['submit_ids', 'receipt_ids'].map((k) => query.get(k));
  // Both or neither: one base alone says nothing about converting between them.
  const basesOk = bases.every((b) => b === null) || bases.every((b) => b === 'hex' || b === 'decimal');
  return (
    [...query.keys()].every((k) => SMPP_URL_PARAMS.has(k)) &&
    inRange('tps', 100_000) &&
    inRange('window', 1000) &&
    basesOk
  );
}

const SMPP_URL_PARAMS = new Set(['tps', 'window', 'submit_ids', 'receipt_ids']);

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
  /** The embedded SMSC simulator's control API port (SMSC_SIMULATOR_CONTROL_PORT); unset: none. */
  smscSimulatorControlPort?: number;
  /**
   * The carriers behind the six channels. A provider left unset runs against its simulator
   * (a local SMSC, local fake HTTP APIs), started in-process by `npm start`.
   */
  providers: ProvidersConfig;
  supportWhatsapp: string;
  /** GTM_CONTAINER_ID: the web app's tag manager container, served in public-config and allowed by the CSP. */
  gtmContainerId: string | undefined;
  linkClicksPerIpPerMinute: number;
  /**
   * Whether calls to customer-typed URLs (a URA's integration URL) may reach private or local
   * addresses: only on a local trial (loopback PUBLIC_URL) or in tests (NODE_ENV=test); otherwise
   * they are refused (SSRF).
   */
  allowPrivateOutbound: boolean;
  /**
   * Which direct peers may set X-Forwarded-For (the client IP behind the abuse limits). Default
   * `loopback`: a reverse proxy on the same machine; a client reaching the server directly can
   * no longer pick its own IP to dodge the per-IP limits.
   */
  trustProxy: boolean | string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** `auto`: human-readable when stdout is a terminal, JSON lines otherwise (a log collector). */
  logFormat: z.infer<typeof envSchema>['LOG_FORMAT'];
  /** Set → `GET /metrics` answers Prometheus to this bearer token; unset → no metrics at all (404). */
  metricsToken: string | undefined;
  env: z.infer<typeof envSchema>['NODE_ENV'];
};

export type SmppConfig = {
  url: string;
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** Submits per second on the bind. */
  tps: number;
  /** Requests in flight on the bind. */
  window: number;
  /**
   * The bases of the SMSC's submit_sm_resp ids and receipt text ids when the operator knows they
   * differ (Kannel's msg-id-type): `?submit_ids=hex&receipt_ids=decimal`. Unset: learned from evidence.
   */
  idBases?: { submit: 'hex' | 'decimal'; receipt: 'hex' | 'decimal' };
};

export type ProvidersConfig = {
  smpp: SmppConfig | undefined;
  whatsapp:
    | {
        apiUrl: string;
        apiVersion: string;
        phoneNumberId: string;
        accessToken: string;
        appSecret: string;
        verifyToken: string;
        /** Sends per second paced client-side (the number's throughput). */
        messagesPerSecond: number;
      }
    | undefined;
  rcs:
    | {
        apiUrl: string;
        agentId: string;
        serviceAccountFile: string;
        webhookToken: string;
        /** Sends per second paced client-side (the agent's quota). */
        messagesPerSecond: number;
      }
    | undefined;
  voice: { apiUrl: string; accountSid: string; authToken: string; from: string; callsPerSecond: number } | undefined;
};

/** The SMPP defaults when SMPP_URL does not say: a typical carrier bind. */
export const SMPP_DEFAULT_TPS = 100;
export const SMPP_DEFAULT_WINDOW = 10;

export function parseSmppUrl(raw: string): SmppConfig {
  const url = new URL(raw.replace(/^smpps?:/, 'http:'));
  return {
    url: raw,
    host: url.hostname,
    port: Number(url.port),
    systemId: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    tps: Number(url.searchParams.get('tps') ?? SMPP_DEFAULT_TPS),
    window: Number(url.searchParams.get('window') ?? SMPP_DEFAULT_WINDOW),
    ...idBasesOf(url.searchParams.get('submit_ids'), url.searchParams.get('receipt_ids')),
  };
}

function idBasesOf(submit: string | null, receipt: string | null): Pick<SmppConfig, 'idBases'> {
  const base = (b: string | null) => (b === 'hex' || b === 'decimal' ? b : null);
  const s = base(submit);
  const r = base(receipt);
  return s && r ? { idBases: { submit: s, receipt: r } } : {};
}

/**
 * A provider is real when all of its variables are set, its simulator when none is; some but
 * not all is a mistake, reported with the others at start.
 */
function providersOf(e: z.infer<typeof envSchema>, problems: string[]): ProvidersConfig {
  const group = <K extends keyof typeof e>(name: string, keys: K[]) => {
    const set = keys.filter((k) => e[k] !== undefined);
    if (set.length > 0 && set.length < keys.length) {
      problems.push(
        `${name}: set all of ${keys.join(', ')} or none (missing ${keys.filter((k) => !set.includes(k)).join(', ')})`,
      );
    }
    return set.length === keys.length;
  };
  const whatsapp = group('WhatsApp', [
    'WHATSAPP_PHONE_NUMBER_ID',
    'WHATSAPP_ACCESS_TOKEN',
    'WHATSAPP_APP_SECRET',
    'WHATSAPP_VERIFY_TOKEN',
  ]);
  const rcs = group('RCS', ['RCS_AGENT_ID', 'RCS_SERVICE_ACCOUNT_FILE', 'RCS_WEBHOOK_TOKEN']);
  const voice = group('Voice', ['VOICE_ACCOUNT_SID', 'VOICE_AUTH_TOKEN', 'VOICE_FROM']);
  return {
    smpp: e.SMPP_URL ? parseSmppUrl(e.SMPP_URL) : undefined,
    whatsapp: whatsapp
      ? {
          apiUrl: e.WHATSAPP_API_URL.replace(/\/+$/, ''),
          apiVersion: e.WHATSAPP_API_VERSION,
          phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID!,
          accessToken: e.WHATSAPP_ACCESS_TOKEN!,
          appSecret: e.WHATSAPP_APP_SECRET!,
          verifyToken: e.WHATSAPP_VERIFY_TOKEN!,
          messagesPerSecond: e.WHATSAPP_MESSAGES_PER_SECOND,
        }
      : undefined,
    rcs: rcs
      ? {
          apiUrl: e.RCS_API_URL.replace(/\/+$/, ''),
          agentId: e.RCS_AGENT_ID!,
          serviceAccountFile: path.resolve(e.RCS_SERVICE_ACCOUNT_FILE!),
          webhookToken: e.RCS_WEBHOOK_TOKEN!,
          messagesPerSecond: e.RCS_MESSAGES_PER_SECOND,
        }
      : undefined,
    voice: voice
      ? {
          apiUrl: e.VOICE_API_URL.replace(/\/+$/, ''),
          accountSid: e.VOICE_ACCOUNT_SID!,
          authToken: e.VOICE_AUTH_TOKEN!,
          from: e.VOICE_FROM!,
          callsPerSecond: e.VOICE_CALLS_PER_SECOND,
        }
      : undefined,
  };
}

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
  const problems: string[] = [];
  const providers = providersOf(e, problems);
  if (problems.length > 0) throw new ConfigError(problems);
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
    smscSimulatorControlPort: e.SMSC_SIMULATOR_CONTROL_PORT,
    providers,
    supportWhatsapp: e.SUPPORT_WHATSAPP,
    gtmContainerId: e.GTM_CONTAINER_ID,
    linkClicksPerIpPerMinute: e.LINK_CLICKS_PER_IP_PER_MINUTE,
    // A deployment's NODE_ENV (development included) never turns the SSRF guard off; only tests and a local trial.
    allowPrivateOutbound: isLoopbackUrl(publicUrl) || e.NODE_ENV === 'test',
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    metricsToken: e.METRICS_TOKEN,
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
  if (/SECRET|PASSWORD|KEY|TOKEN/.test(name)) return '***';
  return value.replace(/\/\/([^:@/]+):([^@/]*)@/, '//$1:***@');
}
