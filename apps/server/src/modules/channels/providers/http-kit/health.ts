/**
 * The health an HTTP carrier adapter reports: reachable or not (set by each exchange), sends
 * in flight, and the last problem that concerns the account or the link rather than one
 * message (a revoked token, a refused connection), never a recipient's own failure.
 */
import type { Clock } from '../../../../platform/clock/clock.ts';
import type { ProviderHealth } from '../../provider.ts';
import type { SendPacer } from './pacer.ts';

export class HealthTracker {
  /** Not known to be unreachable: an HTTP API has no connection to watch before the first send. */
  private connected = true;
  private inFlight = 0;
  private lastError: ProviderHealth['lastError'] = null;

  constructor(
    private readonly provider: string,
    private readonly mode: ProviderHealth['mode'],
    private readonly pacer: SendPacer,
    private readonly clock: Clock,
  ) {}

  started(): void {
    this.inFlight++;
  }
  finished(): void {
    this.inFlight--;
  }
  /** The carrier answered (whatever it said). */
  reached(): void {
    this.connected = true;
  }
  unreachable(message: string): void {
    this.connected = false;
    this.error(message);
  }
  error(message: string): void {
    this.lastError = { message, at: this.clock.now().toISOString() };
  }

  snapshot(): ProviderHealth {
    return {
      provider: this.provider,
      mode: this.mode,
      connected: this.connected,
      tpsLimit: Number.isFinite(this.pacer.perSecond) ? this.pacer.perSecond : null,
      tpsInUse: this.pacer.inUse(),
      inFlight: this.inFlight,
      lastError: this.lastError,
    };
  }
}
