/**
 * The bind's life: connect (TCP, or TLS for smpps://), bind_transceiver as SMPP 3.4 (interface
 * version 0x34), keep it alive with enquire_link, answer the SMSC's enquire_link and unbind, and
 * after a drop reconnect with exponential backoff (initialMs doubling up to maxMs; reset by a bind
 * that succeeds). What flows over the bind (submits, deliveries) is the provider's.
 */
import net from 'node:net';
import tls from 'node:tls';
import { describeStatus, type Pdu, STATUS } from './pdu.ts';
import { ConnectionLostError, PduSocket } from './pdu-socket.ts';

export type BindOptions = {
  host: string;
  port: number;
  tls?: boolean;
  systemId: string;
  password: string;
  enquireLinkMs: number;
  responseTimeoutMs: number;
  reconnect: { initialMs: number; maxMs: number };
  logger?: { warn(data: object, message: string): void; info(data: object, message: string): void };
};

export type BindListener = {
  onBound(link: PduSocket): void;
  /** The bind is gone (dropped, refused, closed); what was in flight was rejected by the link. */
  onUnbound(): void;
  /** The SMSC answered bind_transceiver with an error status. */
  onRefused(status: number, message: string): void;
  /** A request of the SMSC other than enquire_link and unbind (deliver_sm…). */
  onRequest(link: PduSocket, pdu: Pdu): void;
  onError(message: string): void;
};

export class SmppBind {
  private current: PduSocket | null = null;
  private isBound = false;
  private closing = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly keepAlive: NodeJS.Timeout;
  private waiters: (() => void)[] = [];
  binds = 0;
  /** The delays of the last reconnects (ms), newest last. */
  readonly reconnectDelaysMs: number[] = [];

  constructor(
    private readonly o: BindOptions,
    private readonly listener: BindListener,
  ) {
    this.keepAlive = setInterval(() => this.enquireLink(), o.enquireLinkMs);
    this.connect();
  }

  get bound(): boolean {
    return this.isBound;
  }

  /** The bound link, or null. */
  get link(): PduSocket | null {
    return this.isBound && this.current?.open ? this.current : null;
  }

  /** Resolves once bound; rejects after `timeoutMs` with `why()` as the reason. */
  ready(timeoutMs: number, why: () => string): Promise<void> {
    if (this.isBound) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no SMPP bind within ${timeoutMs} ms: ${why()}`)), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Unbinds (once `drained()` or after the response timeout) and disconnects; no reconnect after. */
  async close(drained: () => boolean): Promise<void> {
    this.closing = true;
    clearInterval(this.keepAlive);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const link = this.link;
    if (link) {
      const deadline = Date.now() + this.o.responseTimeoutMs;
      while (!drained() && Date.now() < deadline && link.open) await new Promise((r) => setTimeout(r, 10));
      await link.request('unbind', {}, Math.min(this.o.responseTimeoutMs, 2000)).catch(() => {});
    }
    this.current?.destroy('closed by Ecoa');
  }

  private connect(): void {
    if (this.closing) return;
    const { host, port } = this.o;
    const socket = this.o.tls
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host })
      : net.connect({ host, port });
    const link = new PduSocket(socket, {
      onRequest: (pdu) => this.onRequest(link, pdu),
      onProtocolError: (reason) => this.listener.onError(`SMPP protocol error: ${reason}`),
      onClose: (reason) => this.onClose(link, reason),
    });
    this.current = link;
    socket.once(this.o.tls ? 'secureConnect' : 'connect', () => this.bind(link));
  }

  private bind(link: PduSocket): void {
    const fields = {
      system_id: this.o.systemId,
      password: this.o.password,
      system_type: '',
      interface_version: 0x34,
      addr_ton: 0,
      addr_npi: 0,
      address_range: '',
    };
    link.request('bind_transceiver', fields, this.o.responseTimeoutMs).then(
      (response) => {
        const status = response.command_status;
        if (status !== STATUS.OK) {
          const message = `the SMSC refused the bind of "${this.o.systemId}": ${describeStatus(status)}`;
          this.listener.onError(message);
          this.listener.onRefused(status, message);
          link.destroy(message);
          return;
        }
        this.isBound = true;
        this.attempt = 0;
        this.binds++;
        this.o.logger?.info({ host: this.o.host, port: this.o.port }, 'SMPP bound');
        for (const waiter of this.waiters.splice(0)) waiter();
        this.listener.onBound(link);
      },
      (err: Error) => link.destroy(`bind_transceiver: ${err.message}`),
    );
  }

  private onClose(link: PduSocket, reason: string | null): void {
    if (this.current !== link) return;
    const wasBound = this.isBound;
    this.isBound = false;
    this.current = null;
    if (wasBound) this.listener.onUnbound();
    if (this.closing) return;
    if (reason && wasBound) this.listener.onError(`SMPP bind lost: ${reason}`);
    else if (reason && !reason.startsWith('the SMSC refused')) this.listener.onError(`SMPP connect failed: ${reason}`);
    const delay = Math.min(this.o.reconnect.maxMs, this.o.reconnect.initialMs * 2 ** this.attempt);
    this.attempt++;
    this.reconnectDelaysMs.push(delay);
    if (this.reconnectDelaysMs.length > 20) this.reconnectDelaysMs.shift();
    this.o.logger?.warn({ reason, delay }, 'SMPP reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private enquireLink(): void {
    const link = this.link;
    if (!link) return;
    link.request('enquire_link', {}, this.o.responseTimeoutMs).then(
      () => {},
      (err: Error) => {
        if (!(err instanceof ConnectionLostError)) link.destroy(`enquire_link unanswered: ${err.message}`);
      },
    );
  }

  private onRequest(link: PduSocket, pdu: Pdu): void {
    if (pdu.command === 'enquire_link') {
      link.respond(pdu, STATUS.OK);
    } else if (pdu.command === 'unbind') {
      link.respond(pdu, STATUS.OK);
      link.destroy('the SMSC unbound');
    } else {
      this.listener.onRequest(link, pdu);
    }
  }
}
