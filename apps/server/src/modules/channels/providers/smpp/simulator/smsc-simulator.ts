/**
 * A simulated SMSC: a real SMPP 3.4 server on loopback, built on the `smpp` package's server side
 * (its framing and decoding, independent of the adapter's), so the adapter's real code always
 * runs against a peer that speaks the protocol. It authenticates binds, takes submit_sm with ids
 * in a chosen style, sends receipts after a latency with an outcome mix (TLV, text or both, in
 * other SMSCs' byte layouts; even before the submit_sm_resp), answers slowly, throttles (a share,
 * above a rate, or everything for a while), paces, drops binds, sends MO messages, and counts what it
 * received. `control-api.ts` puts the same controls on HTTP for `npm run simulators`.
 */
import { randomInt } from 'node:crypto';
import smpp from 'smpp';
import { decodePdu, STATUS } from '../pdu.ts';
import { readUdh } from '../short-message.ts';
import { type ControlApi, startControlApi } from './control-api.ts';
import { type SmscCounters, SubmitLedger, type SubmitRecord } from './ledger.ts';
import { type MoRequest, moDeliverFields } from './mo.ts';
import { formatId, pickOutcome, SMSC_SIMULATOR_DEFAULTS, type SmscSimulatorOptions, seededRandom } from './options.ts';
import { type ReceiptRequest, receiptDeliverSm } from './receipt-pdu.ts';

export { SMSC_SIMULATOR_DEFAULTS, type SmscSimulatorOptions } from './options.ts';

type Session = InstanceType<typeof smpp.Session>;
type PackagePdu = InstanceType<typeof smpp.PDU>;
type Bind = { id: number; session: Session; bound: boolean; inFlight: number; lastActivity: number };

export type { MoRequest } from './mo.ts';

export type SmscSimulator = {
  host: string;
  port: number;
  /** The control API's port, or null without one. */
  httpPort: number | null;
  /** `smpp://system_id:password@host:port`: what SMPP_URL would say. */
  url: string;
  options(): SmscSimulatorOptions;
  setOptions(partial: Partial<SmscSimulatorOptions>): void;
  /** `receiptsHeld`: receipts due but kept while `holdReceipts` is on. */
  counters(): SmscCounters & { bound: number; receiptsHeld: number };
  /** The submits received (up to `keepRecords`), with their bytes. */
  records(): SubmitRecord[];
  reset(): void;
  /** Sends a message "from a phone" on a bound session; resolves with the deliver_sm_resp statuses. */
  sendMo(request: MoRequest): Promise<{ parts: number; statuses: number[] }>;
  /** Cuts every bind now (as a network failure would). */
  dropBinds(): void;
  close(): Promise<void>;
};

export async function startSmscSimulator(overrides: Partial<SmscSimulatorOptions> = {}): Promise<SmscSimulator> {
  let o: SmscSimulatorOptions = { ...SMSC_SIMULATOR_DEFAULTS, ...overrides };
  const ledger = new SubmitLedger(o.keepRecords);
  let random = seededRandom(o.seed);
  const binds = new Set<Bind>();
  let bindIds = 0;
  // Unique across restarts and across simulators, as a real SMSC's ids are: a carrier id is
  // matched to its message for days, and many simulators may share one database (tests, benches).
  let nextId = (BigInt(Date.now()) << 12n) | BigInt(randomInt(4096));
  let dropCountdown = o.dropAfterSubmits;
  let throttleAllUntil = o.throttleAllForMs === null ? 0 : Date.now() + o.throttleAllForMs;
  let refuseLeft = o.refuseBinds;
  let nextResponseSlot = 0;
  let moReference = 0;
  const waitingReceipts: ReceiptRequest[] = [];
  const heldReceipts: ReceiptRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const boundBinds = () => [...binds].filter((b) => b.bound && !b.session.socket.destroyed);

  function sendReceipt(request: ReceiptRequest, preferred: Bind | null, attempt = 1): void {
    const bind = preferred?.bound && !preferred.session.socket.destroyed ? preferred : boundBinds()[0];
    if (!bind) {
      waitingReceipts.push(request);
      return;
    }
    bind.session.send(receiptDeliverSm(request, o, new Date()), (resp: PackagePdu) => {
      if (resp.command_status === STATUS.OK) {
        ledger.counters.receiptsSent++;
        return;
      }
      ledger.counters.receiptsRefused++;
      // A temporary refusal is tried again, as an SMSC does; a permanent one is given up.
      if (resp.command_status !== STATUS.PERMANENT_APP_ERROR && attempt < 5) {
        later(200 * attempt, () => sendReceipt(request, null, attempt + 1));
      }
    });
  }

  /** A receipt falls due: sent now, or kept while `holdReceipts` is on. */
  function receiptDue(request: ReceiptRequest, bind: Bind): void {
    if (o.holdReceipts) heldReceipts.push(request);
    else sendReceipt(request, bind);
  }

  /** A refusal (throttled, rejected) after the configured latency, counted in flight meanwhile. */
  function refuse(bind: Bind, response: PackagePdu): void {
    bind.inFlight++;
    ledger.inFlight(bind.inFlight);
    const send = () => {
      bind.inFlight--;
      if (!bind.session.socket.destroyed) bind.session.send(response);
    };
    if (o.responseLatencyMs > 0) later(o.responseLatencyMs, send);
    else setImmediate(send);
  }

  function onSubmit(bind: Bind, pdu: PackagePdu, raw: Buffer): void {
    const now = Date.now();
    const perSecond = ledger.arrival(now);
    const session = bind.session;
    if (dropCountdown !== null && --dropCountdown <= 0) {
      dropCountdown = null;
      o = { ...o, dropAfterSubmits: null };
      take(bind, pdu, raw, now);
      ledger.counters.drops++;
      session.destroy();
      return;
    }
    const throttling =
      now < throttleAllUntil ||
      (o.throttleUntil !== null && now < o.throttleUntil) ||
      (o.throttleAboveTps !== null && perSecond > o.throttleAboveTps) ||
      random() < o.throttleShare;
    if (throttling) {
      ledger.counters.throttled++;
      refuse(bind, pdu.response({ command_status: o.throttleStatus }));
      return;
    }
    if (o.rejectStatus !== null) {
      refuse(bind, pdu.response({ command_status: o.rejectStatus }));
      return;
    }
    if (o.refuseLaterParts !== null && laterPart(pdu, raw)) {
      refuse(bind, pdu.response({ command_status: o.refuseLaterParts }));
      return;
    }
    bind.inFlight++;
    ledger.inFlight(bind.inFlight);
    const { messageId, receipt } = take(bind, pdu, raw, now);
    let delay = o.responseLatencyMs;
    if (o.throughputPerSecond) {
      const slot = Math.max(now + delay, nextResponseSlot);
      nextResponseSlot = slot + 1000 / o.throughputPerSecond;
      delay = slot - now;
    }
    const respond = () => {
      bind.inFlight--;
      if (!session.socket.destroyed) session.send(pdu.response({ message_id: messageId }));
    };
    if (receipt && o.receiptBeforeResponse) receiptDue(receipt, bind);
    if (delay > 0) later(delay, respond);
    else setImmediate(respond);
    if (receipt && !o.receiptBeforeResponse) later(delay + o.receiptLatencyMs, () => receiptDue(receipt, bind));
  }

  /** Whether this submit is a second or later part of a long SMS (its UDH's sequence). */
  function laterPart(pdu: PackagePdu, raw: Buffer): boolean {
    if (!((Number(pdu.esm_class) || 0) & 0x40)) return false;
    const bytes = decodePdu(raw).short_message;
    const udh = Buffer.isBuffer(bytes) ? readUdh(bytes) : null;
    return (udh?.concatenation?.sequence ?? 1) > 1;
  }

  /** Records a taken submit; its id and, when asked for, the receipt to send. */
  function take(bind: Bind, pdu: PackagePdu, raw: Buffer, now: number) {
    const value = nextId++;
    const messageId = formatId(value, o.messageIdStyle);
    const rawPdu = decodePdu(raw);
    const shortMessage = Buffer.isBuffer(rawPdu.short_message) ? rawPdu.short_message : Buffer.alloc(0);
    const esmClass = Number(pdu.esm_class) || 0;
    const udh = esmClass & 0x40 ? readUdh(shortMessage) : null;
    const decoded = pdu.short_message as { message?: unknown } | undefined;
    const text = typeof decoded?.message === 'string' ? decoded.message : '';
    const record: SubmitRecord = {
      at: now,
      bind: bind.id,
      source: String(pdu.source_addr ?? ''),
      destination: String(pdu.destination_addr ?? ''),
      dataCoding: Number(pdu.data_coding) || 0,
      esmClass,
      shortMessage,
      udh: udh ? shortMessage.subarray(0, udh.length) : null,
      text,
      messageId,
    };
    ledger.taken(record, udh?.concatenation ?? null);
    const wantsReceipt = o.receipts && (Number(pdu.registered_delivery) & 0x03) !== 0;
    const receipt: ReceiptRequest | null = wantsReceipt
      ? {
          messageId,
          value,
          source: record.source,
          destination: record.destination,
          text,
          submittedAt: new Date(now),
          outcome: pickOutcome(o.outcomes, random()),
        }
      : null;
    return { messageId, receipt };
  }

  function onBind(bind: Bind, pdu: PackagePdu): void {
    let status: number = STATUS.OK;
    if (refuseLeft > 0) {
      refuseLeft--;
      status = STATUS.BIND_FAILED;
    } else if (pdu.system_id !== o.systemId) status = STATUS.INVALID_SYSTEM_ID;
    else if (pdu.password !== o.password) status = STATUS.INVALID_PASSWORD;
    if (status !== STATUS.OK) {
      ledger.counters.bindsRefused++;
      bind.session.send(pdu.response({ command_status: status }));
      return;
    }
    bind.bound = true;
    ledger.counters.binds++;
    bind.session.send(pdu.response({ system_id: 'EcoaSMSC' }));
    for (const receipt of waitingReceipts.splice(0)) sendReceipt(receipt, bind);
  }

  function onPdu(bind: Bind, pdu: PackagePdu, raw: Buffer): void {
    bind.lastActivity = Date.now();
    if (pdu.isResponse()) return;
    const command = pdu.command;
    if (command === 'bind_transceiver' || command === 'bind_transmitter' || command === 'bind_receiver') {
      onBind(bind, pdu);
    } else if (command === 'enquire_link') {
      ledger.counters.enquireLinks++;
      bind.session.send(pdu.response());
    } else if (command === 'unbind') {
      ledger.counters.unbinds++;
      bind.bound = false;
      bind.session.send(pdu.response(), () => bind.session.close());
    } else if (!bind.bound) {
      bind.session.send(pdu.response({ command_status: STATUS.INVALID_BIND_STATUS }));
    } else if (command === 'submit_sm') {
      onSubmit(bind, pdu, raw);
    } else {
      bind.session.send(pdu.response({ command_status: STATUS.INVALID_COMMAND_ID }));
    }
  }

  const server = smpp.createServer({}, (session: Session) => {
    const bind: Bind = { id: ++bindIds, session, bound: false, inFlight: 0, lastActivity: Date.now() };
    binds.add(bind);
    // An SMSC answers each PDU at once (Nagle would hold an answer back until the last is acknowledged).
    session.socket.setNoDelay(true);
    // The package reads each PDU with socket.read(); a tap keeps the exact bytes of each one.
    const socket = session.socket;
    const read = socket.read.bind(socket);
    let tapped: Buffer[] = [];
    socket.read = ((size?: number) => {
      const chunk = read(size);
      if (chunk) tapped.push(chunk);
      return chunk;
    }) as typeof socket.read;
    session.on('pdu', (pdu: PackagePdu) => {
      const raw = Buffer.concat(tapped);
      tapped = [];
      onPdu(bind, pdu, raw);
    });
    session.on('error', () => session.destroy());
    socket.on('close', () => {
      bind.bound = false;
      binds.delete(bind);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;

  const idleTimer = setInterval(() => {
    if (o.idleTimeoutMs === null) return;
    const now = Date.now();
    for (const bind of boundBinds()) {
      if (now - bind.lastActivity > o.idleTimeoutMs) {
        ledger.counters.idleDrops++;
        bind.session.destroy();
      }
    }
  }, 50);

  async function sendMo(request: MoRequest): Promise<{ parts: number; statuses: number[] }> {
    const bind = boundBinds()[0];
    if (!bind) throw new Error('no ESME is bound to the simulator');
    moReference = (moReference + 1) & 0xff;
    const parts = moDeliverFields(request, moReference);
    const statuses = await Promise.all(
      parts.map(
        (fields) =>
          new Promise<number>((resolve) =>
            bind.session.deliver_sm(fields, (resp: PackagePdu) => resolve(resp.command_status)),
          ),
      ),
    );
    ledger.counters.moSent++;
    return { parts: parts.length, statuses };
  }

  const simulator: SmscSimulator = {
    host: o.host,
    port,
    httpPort: null,
    url: `smpp://${encodeURIComponent(o.systemId)}:${encodeURIComponent(o.password)}@${o.host}:${port}`,
    options: () => ({ ...o }),
    setOptions(partial) {
      o = { ...o, ...partial };
      if ('dropAfterSubmits' in partial) dropCountdown = o.dropAfterSubmits;
      if ('refuseBinds' in partial) refuseLeft = o.refuseBinds;
      if ('seed' in partial) random = seededRandom(o.seed);
      // Let go of the hold: every receipt kept meanwhile goes out at once, in the order they fell due.
      if (!o.holdReceipts) for (const receipt of heldReceipts.splice(0)) sendReceipt(receipt, null);
      if ('throttleAllForMs' in partial) {
        throttleAllUntil = o.throttleAllForMs === null ? 0 : Date.now() + o.throttleAllForMs;
      }
    },
    counters: () => ({
      ...structuredClone(ledger.counters),
      bound: boundBinds().length,
      receiptsHeld: heldReceipts.length,
    }),
    records: () => [...ledger.records],
    reset: () => ledger.reset(),
    sendMo,
    dropBinds() {
      for (const bind of binds) {
        ledger.counters.drops++;
        bind.session.destroy();
      }
    },
    async close() {
      clearInterval(idleTimer);
      for (const timer of timers) clearTimeout(timer);
      await control?.close();
      for (const bind of binds) bind.session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  let control: ControlApi | null = null;
  if (o.httpPort !== null) {
    control = await startControlApi(simulator, o.host, o.httpPort);
    simulator.httpPort = control.port;
  }
  return simulator;
}
