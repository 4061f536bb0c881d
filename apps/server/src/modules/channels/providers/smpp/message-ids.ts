/**
 * SMSC message ids, brought to one form so a receipt matches its submit whatever the SMSC's style.
 *
 * The rule (`canonicalMessageId`): NULs and whitespace are removed (SMSCs pad C-octet strings and
 * TLVs), letters are lower-cased (`1A2B` = `1a2b`), and an id made only of hex digits loses its
 * leading zeros (`000123` = `123`; `0` stays `0`). Other ids (UUIDs, dashes) keep their zeros.
 *
 * Bases: the receipted_message_id TLV carries the submit's own id (SMPP 3.4 §5.3.2.12), but the
 * `id:` of a receipt text is, at some SMSCs, the same number in another base (a hex submit id,
 * a decimal receipt id: Kannel's `msg-id-type`, Jasmin's `dlr_msg_id_bases`; some write the TLV
 * that way too). One id cannot tell (`1234` reads both ways, and sequential ids make "the other
 * base matches some submit" match the wrong message), so a receipt id is read in another base
 * only on evidence: the adapter's `idBases` option (it wins); a receipt carrying both the TLV and
 * a text id that is the TLV's value in the other base; or the ids this adapter got in its recent
 * submit_sm_resp (`noteSubmitted`): an id that is no recent submit as written while exactly one
 * of its other-base readings is, from a source (TLV or text) that never matched as written. Once
 * a source matched in the other base, its ids of submits older than the memory are read that way
 * too; a source that matched as written is never converted (the receipt of a forgotten submit).
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

/** The other-base readings of a canonical id: decimal→hex and hex→decimal, where they apply. */
function otherReadings(id: string): { bases: IdBases; id: string }[] {
  const out: { bases: IdBases; id: string }[] = [];
  const asHex = convertMessageId(id, 'decimal', 'hex');
  if (asHex !== null && asHex !== id) out.push({ bases: { receipt: 'decimal', submit: 'hex' }, id: asHex });
  const asDecimal = convertMessageId(id, 'hex', 'decimal');
  if (asDecimal !== null && asDecimal !== id) out.push({ bases: { receipt: 'hex', submit: 'decimal' }, id: asDecimal });
  return out;
}

type Source = 'tlv' | 'text';

/** How many recent submit ids are kept to recognise a receipt id in another base. */
export const REMEMBERED_SUBMIT_IDS = 100_000;

export class ReceiptIdResolver {
  private readonly configured: IdBases | null;
  /** Shown by a receipt carrying both ids: its text in another base than its TLV. */
  private proven: IdBases | null = null;
  private readonly learned: Record<Source, IdBases | null> = { tlv: null, text: null };
  /** Receipts whose id matched a recent submit as written: that source is in the submits' base. */
  private readonly matchedAsWritten: Record<Source, number> = { tlv: 0, text: 0 };
  /** Recent submit ids, oldest first (a Set keeps insertion order). */
  private readonly recent = new Set<string>();

  constructor(
    configured: IdBases | undefined,
    private readonly remember = REMEMBERED_SUBMIT_IDS,
  ) {
    this.configured = configured && configured.submit !== configured.receipt ? configured : null;
  }

  /** The bases in use for receipt texts when they differ (configured or learned), else null. */
  get differingBases(): IdBases | null {
    return this.configured ?? this.proven ?? this.learned.text;
  }

  /** An id an SMSC gave in a submit_sm_resp (canonical). */
  noteSubmitted(id: string): void {
    this.recent.delete(id);
    this.recent.add(id);
    if (this.recent.size > this.remember) this.recent.delete(this.recent.values().next().value!);
  }

  /**
   * The id to report for a receipt. `tlvId` (receipted_message_id) is the submit's own id;
   * `textId` the receipt text's `id:`. Both canonical, either may be missing.
   */
  resolve(tlvId: string | null, textId: string | null): string | null {
    if (tlvId !== null) {
      if (textId !== null && textId !== tlvId && !this.configured && !this.proven) this.learnFrom(textId, tlvId);
      return this.match(tlvId, 'tlv');
    }
    if (textId === null) return null;
    const fixed = this.configured ?? this.proven;
    if (fixed) return convertMessageId(textId, fixed.receipt, fixed.submit) ?? textId;
    return this.match(textId, 'text');
  }

  private match(id: string, source: Source): string {
    const asWritten = this.recent.has(id);
    const others = otherReadings(id).filter((r) => this.recent.has(r.id));
    if (asWritten && others.length === 0) {
      this.matchedAsWritten[source]++;
      this.learned[source] = null;
      return id;
    }
    if (!asWritten && others.length === 1 && this.matchedAsWritten[source] === 0) {
      this.learned[source] = others[0]!.bases;
      return others[0]!.id;
    }
    // Both readings are recent submits, or neither is: what this source showed before decides.
    const learned = this.learned[source];
    return learned ? (convertMessageId(id, learned.receipt, learned.submit) ?? id) : id;
  }

  private learnFrom(textId: string, tlvId: string): void {
    if (convertMessageId(textId, 'decimal', 'hex') === tlvId) this.proven = { receipt: 'decimal', submit: 'hex' };
    else if (convertMessageId(textId, 'hex', 'decimal') === tlvId) this.proven = { receipt: 'hex', submit: 'decimal' };
  }
}
