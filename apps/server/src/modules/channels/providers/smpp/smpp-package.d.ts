/**
 * The part of the `smpp` package (0.5.x, untyped) Ecoa uses: its PDU codec for the adapter, and
 * its server side for the SMSC simulator. Declared here so nothing vendor-typed leaves this folder.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  export type PduFields = Record<string, unknown>;

  export class PDU {
    constructor(command: string, options?: PduFields);
    constructor(buffer: Buffer);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    isResponse(): boolean;
    response(options?: PduFields): PDU;
    toBuffer(): Buffer;
    fromBuffer(buffer: Buffer): void;
    static maxLength: number;
  }

  export class Session extends EventEmitter {
    socket: Socket;
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    deliver_sm(options: PduFields, responseCallback?: (pdu: PDU) => void): boolean;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  type Command = (fields: PduFields, responseCallback?: (pdu: PDU) => void) => boolean;
  /** The package's client session (used only by the bench's bare loop, as the baseline). */
  export function connect(options: { host: string; port: number }): Session & {
    bind_transceiver: Command;
    submit_sm: Command;
    unbind(responseCallback?: (pdu: PDU) => void): boolean;
  };

  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;

  export const errors: Record<string, number>;
  export const commands: Record<string, { id: number }>;
}
