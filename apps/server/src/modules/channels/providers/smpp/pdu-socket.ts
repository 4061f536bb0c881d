/**
 * One SMPP connection as the adapter uses it: frames in, decoded PDUs out, requests matched to
 * their responses by sequence number. It never throws into the event loop: a frame it cannot
 * read is answered (generic_nack) or, when the stream cannot be re-synchronised, ends the
 * connection with the reason, reported once through `onClose`.
 */
import type { Socket } from 'node:net';
import { decodePdu, encodePdu, type FrameError, isResponseId, type Pdu, PduFramer, readHeader, STATUS } from './pdu.ts';

/** Sequence numbers run 1..0x7FFFFFFF (SMPP 3.4 section 3.2). */
const MAX_SEQUENCE = 0x7fffffff;

export type PduSocketHandlers = {
  /** A request from the peer (deliver_sm, enquire_link, unbind…), decoded. */
  onRequest(pdu: Pdu): void;
  /** A frame that could not be read, already answered or dropped: why, for health and logs. */
  onProtocolError(reason: string): void;
  /** The connection ended (once). `reason` says why when it was not a clean close. */
  onClose(reason: string | null): void;
};

type Waiter = { resolve(pdu: Pdu): void; reject(err: Error): void; timer: NodeJS.Timeout };

export class ConnectionLostError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ConnectionLostError';
  }
}

export class ResponseTimeoutError extends Error {
  constructor(command: string, ms: number) {
    super(`no ${command}_resp within ${ms} ms`);
    this.name = 'ResponseTimeoutError';
  }
}

export class PduSocket {
  private readonly framer = new PduFramer();
  private readonly waiting = new Map<number, Waiter>();
  private sequence = 0;
  private closed = false;
  private corked = false;

  constructor(
    private readonly socket: Socket,
    private readonly handlers: PduSocketHandlers,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (err) => this.end(`socket error: ${err.message}`));
    socket.on('close', () => this.end('connection closed by the peer'));
  }

  get open(): boolean {
    return !this.closed;
  }

  /** Requests written and not yet answered. */
  get pending(): number {
    return this.waiting.size;
  }

  /**
   * Sends a request and resolves with its response, whatever its command_status (the caller
   * reads it). Rejects with ConnectionLostError when the connection ends first (the request may
   * or may not have reached the peer), ResponseTimeoutError after `timeoutMs`.
   */
  request(command: string, fields: Record<string, unknown>, timeoutMs: number): Promise<Pdu> {
    if (this.closed) return Promise.reject(new ConnectionLostError('not connected'));
    this.sequence = this.sequence >= MAX_SEQUENCE ? 1 : this.sequence + 1;
    const sequence = this.sequence;
    const bytes = encodePdu(command, sequence, fields);
    return new Promise<Pdu>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(sequence);
        reject(new ResponseTimeoutError(command, timeoutMs));
      }, timeoutMs);
      this.waiting.set(sequence, { resolve, reject, timer });
      this.write(bytes);
    });
  }

  /** Answers a request of the peer. */
  respond(request: Pdu, status: number, fields: Record<string, unknown> = {}): void {
    if (this.closed) return;
    const command = `${request.command}_resp`;
    this.write(encodePdu(command, request.sequence_number, fields, status));
  }

  /** Refuses a request with generic_nack (a command we do not take). */
  nack(request: Pdu, status: number): void {
    if (this.closed) return;
    this.write(encodePdu('generic_nack', request.sequence_number, {}, status));
  }

  /** Ends the connection now; what was waiting rejects with ConnectionLostError(reason). */
  destroy(reason: string): void {
    this.end(reason);
  }

  /**
   * PDUs written in the same tick (a window refilled, the answers to a batch of receipts) leave
   * in one TCP write instead of one system call each.
   */
  private write(bytes: Buffer): void {
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(bytes);
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    let frames: Buffer[];
    try {
      frames = this.framer.push(chunk);
    } catch (err) {
      // No way to find the next PDU in the stream: the connection cannot go on.
      this.end(`unreadable stream: ${(err as FrameError).message}`);
      return;
    }
    for (const frame of frames) {
      if (this.closed) return;
      this.handleFrame(frame);
    }
  }

  private handleFrame(frame: Buffer): void {
    const header = readHeader(frame);
    let pdu: Pdu | null = null;
    try {
      pdu = decodePdu(frame);
    } catch {
      pdu = null;
    }
    if (isResponseId(header.commandId)) {
      const waiter = this.waiting.get(header.sequence);
      if (!waiter) {
        this.handlers.onProtocolError(`a response nobody asked for (sequence ${header.sequence})`);
        return;
      }
      this.waiting.delete(header.sequence);
      clearTimeout(waiter.timer);
      // A response whose body is unreadable still says, in its header, how the request ended.
      waiter.resolve(
        pdu ?? {
          command: 'unreadable_resp',
          command_id: header.commandId,
          command_status: header.status,
          sequence_number: header.sequence,
        },
      );
      return;
    }
    if (!pdu || pdu.command === 'unknown') {
      const status = pdu ? STATUS.INVALID_COMMAND_ID : STATUS.INVALID_COMMAND_LENGTH;
      this.handlers.onProtocolError(
        pdu ? `unknown command id 0x${header.commandId.toString(16)}` : 'a request whose body cannot be read',
      );
      this.write(encodePdu('generic_nack', header.sequence, {}, status));
      return;
    }
    // After the reactions to the responses before it in this chunk (a response settles its
    // request's promise, whose `.then` runs as a microtask): a receipt read in the same chunk as its
    // submit_sm_resp is handled once that submit's id is known, as it would be read apart.
    const request = pdu;
    queueMicrotask(() => {
      if (!this.closed) this.handlers.onRequest(request);
    });
  }

  private end(reason: string | null): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    const lost = new ConnectionLostError(reason ?? 'connection closed');
    for (const waiter of this.waiting.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(lost);
    }
    this.waiting.clear();
    this.handlers.onClose(reason);
  }
}
