/** How the SMPP adapter is set up: from SMPP_URL (config) plus the knobs tests and operators may turn. */
import type { SmppConfig } from '../../../../platform/config/config.ts';
import type { RateShare } from '../../../../platform/pacing/process-share.ts';
import type { IdBases } from './message-ids.ts';
import { STATUS } from './pdu.ts';

/** The bind (host, port, account) and its limits (`tps`, `window`: submit_sm in flight) as SMPP_URL gives them. */
export type SmppProviderOptions = Pick<SmppConfig, 'host' | 'port' | 'systemId' | 'password' | 'tps' | 'window'> & {
  /**
   * The TPS window is 1 s plus this margin (flow-control.ts): the SMSC counts by arrival, and a
   * first submit that reached it late would make the next second's look like tps + 1.
   */
  tpsMarginMs?: number;
  tls?: boolean;
  mode: 'simulator' | 'real';
  /** source_addr of submits; empty lets the SMSC put the account's default sender. */
  sourceAddr?: string;
  /** When the SMSC writes receipt text ids in another base than its submit ids (message-ids.ts). */
  idBases?: IdBases;
  enquireLinkMs?: number;
  responseTimeoutMs?: number;
  reconnect?: { initialMs: number; maxMs: number };
  /** How long a submit waits for a bind before failing (retryable). */
  bindWaitMs?: number;
  maxQueuedParts?: number;
  /** First retry delay of a throttled part (doubles per throttle, at most 5 s). */
  throttleRetryMs?: number;
  throttleGiveUpMs?: number;
  clock?: () => number;
  /** This process's share of the tps, when several processes bind the same account (process-share.ts). */
  share?: RateShare;
  logger?: { warn(data: object, message: string): void; info(data: object, message: string): void };
};

export const SMPP_PROVIDER_DEFAULTS = {
  tpsMarginMs: 100,
  enquireLinkMs: 30_000,
  responseTimeoutMs: 10_000,
  reconnect: { initialMs: 500, maxMs: 30_000 },
  bindWaitMs: 30_000,
  maxQueuedParts: 20_000,
  throttleRetryMs: 200,
  throttleGiveUpMs: 120_000,
};

/** Statuses after which the same submit may succeed later (SMPP 3.4 §5.1.3): nothing was taken. */
export const RETRYABLE_STATUSES = new Set<number>([
  STATUS.SYSTEM_ERROR,
  STATUS.TEMPORARY_APP_ERROR,
  STATUS.INVALID_BIND_STATUS,
]);
/** "Too fast": slow the bind and retry the part, never fail the message. */
export const THROTTLING_STATUSES = new Set<number>([STATUS.THROTTLED, STATUS.MESSAGE_QUEUE_FULL]);

export function smppProviderOptions(config: SmppConfig, mode: 'simulator' | 'real'): SmppProviderOptions {
  return {
    host: config.host,
    port: config.port,
    systemId: config.systemId,
    password: config.password,
    tps: config.tps,
    window: config.window,
    tls: config.url.startsWith('smpps:'),
    mode,
    ...(config.idBases ? { idBases: config.idBases } : {}),
  };
}
