/**
 * deliver_sm → Ecoa events, and the status to answer it with. A receipt or MO is answered OK once
 * the listener took it; ESME_RX_T_APPN when the listener failed (or none is set yet), so the SMSC
 * sends it again; ESME_RX_P_APPN for a receipt that names no message (sending it again cannot
 * help). Receipts are reported whatever their id: matching is the channels core's job. One it
 * could not match to a stored message is counted (`unmatchedReceipts`, on /metrics) and logged
 * with its ids as the SMSC wrote them, in hex: an SMSC whose ids we misread shows there, not as
 * messages left `sent` for ever.
 */
import type { EventListener, ProviderEvent } from '../../provider.ts';
import { isReceipt, MoReassembler, moPartOf, receiptOf } from './inbound.ts';
import type { ReceiptIdResolver } from './message-ids.ts';
import { type Pdu, STATUS } from './pdu.ts';

export type DeliveriesLogger = { warn(data: object, message: string): void };

export class Deliveries {
  private readonly mo = new MoReassembler();
  listener: EventListener | null = null;
  intermediateReceipts = 0;
  refusedReceipts = 0;
  unmatchedReceipts = 0;

  constructor(
    private readonly provider: string,
    private readonly ids: ReceiptIdResolver,
    private readonly now: () => number,
    private readonly onError: (message: string) => void,
    private readonly logger?: DeliveriesLogger,
  ) {}

  async handle(pdu: Pdu): Promise<number> {
    const at = new Date(this.now());
    const events: ProviderEvent[] = [];
    let unmatchedWarning: object | null = null;
    if (isReceipt(pdu)) {
      const receipt = receiptOf(pdu);
      if (!receipt) {
        this.refusedReceipts++;
        this.onError('SMPP receipt without a message id: refused');
        return STATUS.PERMANENT_APP_ERROR;
      }
      if (receipt.status === null) {
        this.intermediateReceipts++;
        return STATUS.OK;
      }
      const providerMessageId = this.ids.resolve(receipt.tlvId, receipt.textId)!;
      unmatchedWarning = { providerMessageId, rawIdHex: receipt.rawHex, stat: receipt.stat };
      events.push({
        type: 'status',
        provider: this.provider,
        providerMessageId,
        status: receipt.status,
        reason: receipt.reason,
        at,
      });
    } else {
      for (const whole of this.mo.add(moPartOf(pdu), at.getTime())) {
        events.push({ type: 'inbound', provider: this.provider, from: whole.from, text: whole.text, at });
      }
    }
    if (events.length === 0) return STATUS.OK;
    const listener = this.listener;
    if (!listener) return STATUS.TEMPORARY_APP_ERROR;
    try {
      for (const event of events) {
        const outcome = await listener(event);
        if (outcome === 'early' && unmatchedWarning) {
          this.unmatchedReceipts++;
          this.logger?.warn(
            unmatchedWarning,
            'SMPP receipt matches no stored message (kept in case its submit is being stored)',
          );
        }
      }
      return STATUS.OK;
    } catch (err) {
      this.onError(`the channels listener failed on an SMPP ${events[0]!.type} event: ${(err as Error).message}`);
      return STATUS.TEMPORARY_APP_ERROR;
    }
  }

  /** MO messages whose missing parts never came are reported with the parts that did. */
  flushStaleMo(): void {
    const listener = this.listener;
    if (this.mo.waiting === 0 || !listener) return;
    const at = new Date(this.now());
    for (const whole of this.mo.expire(at.getTime())) {
      listener({ type: 'inbound', provider: this.provider, from: whole.from, text: whole.text, at }).catch((err) =>
        this.onError(`the channels listener failed on an SMPP inbound event: ${(err as Error).message}`),
      );
    }
  }
}
