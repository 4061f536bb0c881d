/**
 * SMSC message ids, brought to one form so a receipt matches its submit whatever the SMSC's style.
 *
 * The rule (`canonicalMessageId`): NULs and whitespace are removed (SMSCs pad C-octet strings and
 * TLVs), letters are lower-cased (`1A2B` = `1a2b`), and an id made only of hex digits loses its
 * leading zeros (`000123` = `123`; `0` stays `0`). Other ids (UUIDs, dashes) keep their zeros.
 *
 * Bases: the receipted_message_id TLV carries the submit's own id (SMPP 3.4 §5.3.2.12), but the
 * `id:` of a receipt text is, at some SMSCs, the same number in another base (a hex submit id,
 * a decimal receipt id: Kannel's `msg-id-type`, Jasmin's `dlr_msg_id_bases`). One id cannot tell
 * (`1234` reads both ways, and sequential ids make guesses from "a recent submit has that value
 * in the other base" match the wrong message), so the bases come from the adapter's `idBases`
 * option, or are learned only from proof: a receipt carrying both the TLV and a text id that is
 * the TLV's value in the other base. Without either, the text id is reported as it is.
 */

export type IdBase = 'hex' | 'decimal';
export type IdBases = { submit: IdBase; receipt: IdBase };

const HEX_ONLY = /^[0-9a-f]+$/;
const DECIMAL_ONLY = /^[0-9]+$/;
/** Longer ids are never numbers to convert (and BigInt work stays small). */
const MAX_NUMERIC_DIGITS = 40;

export function canonicalMessageId(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL padding is what is removed.
  const id = raw.replace(/[\u0000\s]+/g, '').toLowerCase();
  if (!HEX_ONLY.test(id)) return id;
  const trimmed = id.replace(/^0+/, '');
  return trimmed === '' ? '0' : trimmed;
}

/** A canonical id read in one base and written in the other; null when it is not such a number. */
export function convertMessageId(id: string, from: IdBase, to: IdBase): string | null {
  if (from === to) return id;
  if (id.length > MAX_NUMERIC_DIGITS) return null;
  if (from === 'decimal') return DECIMAL_ONLY.test(id) ? BigInt(id).toString(16) : null;
  return HEX_ONLY.test(id) ? BigInt(`0x${id}`).toString(10) : null;
}

export class ReceiptIdResolver {
  private bases: IdBases | null;

  constructor(configured: IdBases | undefined) {
    this.bases = configured && configured.submit !== configured.receipt ? configured : null;
  }

  /** The bases in use when they differ (configured or learned), else null. */
  get differingBases(): IdBases | null {
    return this.bases;
  }

  /**
   * The id to report for a receipt. `tlvId` (receipted_message_id) is the submit's own id;
   * `textId` the receipt text's `id:`. Both canonical, either may be missing.
   */
  resolve(tlvId: string | null, textId: string | null): string | null {
    if (tlvId !== null) {
      if (textId !== null && textId !== tlvId && !this.bases) this.learnFrom(textId, tlvId);
      return tlvId;
    }
    if (textId === null) return null;
    if (!this.bases) return textId;
    return convertMessageId(textId, this.bases.receipt, this.bases.submit) ?? textId;
  }

  private learnFrom(textId: string, tlvId: string): void {
    if (convertMessageId(textId, 'decimal', 'hex') === tlvId) this.bases = { receipt: 'decimal', submit: 'hex' };
    else if (convertMessageId(textId, 'hex', 'decimal') === tlvId) this.bases = { receipt: 'hex', submit: 'decimal' };
  }
}
