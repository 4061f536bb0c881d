/** An XLSX's shared strings: every one (for reading rows), or only those a sample refers to. */

import { AppError } from '../../../platform/errors/app-error.ts';
import type { XmlHandler, XmlTokenizer } from '../../../platform/xml/xml.ts';
import { MiB, XLSX_LIMITS, type XlsxLimits } from './xlsx-limits.ts';

// ---------------------------------------------------------------------------------------------
// Shared strings

/** `_x000D_` escapes (OOXML's way to store characters XML cannot) → the characters. */
export function unescapeOoxml(text: string): string {
  if (text.indexOf('_x') === -1) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

export type StringSink = { add(text: string): void; done: boolean };

/**
 * Every shared string, as UTF-8 in 4 MiB slabs with one start offset per string (no JS string
 * per entry: millions of small strings would cost ~10× the memory and the heap's limit).
 */
export class SharedStrings implements StringSink {
  static readonly SLAB = 4 * MiB;
  done = false;
  count = 0;
  bytes = 0;
  private readonly slabs: Buffer[] = [];
  private readonly slabFill: number[] = [];
  /** Start address (slab × SLAB + offset) of each string, in blocks of 64K. */
  private readonly starts: Uint32Array[] = [];
  /** Recently decoded short strings (repeated values: cities, companies), direct-mapped by index. */
  private readonly cacheIndex = new Int32Array(4096).fill(-1);
  private readonly cacheText: string[] = new Array(4096).fill('');

  constructor(private readonly limits: XlsxLimits = XLSX_LIMITS) {}

  add(text: string): void {
    if (this.count >= this.limits.sharedStrings)
      throw new AppError('XLSX_TOO_LARGE', { limit: 'sharedStrings', max: this.limits.sharedStrings });
    const last = this.slabs.length - 1;
    let slab = last;
    if (slab < 0 || this.slabFill[slab]! + text.length * 3 > SharedStrings.SLAB) {
      this.slabs.push(Buffer.allocUnsafeSlow(SharedStrings.SLAB));
      this.slabFill.push(0);
      slab = last + 1;
    }
    const offset = this.slabFill[slab]!;
    const written = this.slabs[slab]!.write(text, offset, 'utf8');
    this.bytes += written;
    if (this.bytes > this.limits.sharedStringBytes) {
      throw new AppError('XLSX_TOO_LARGE', { limit: 'sharedStringBytes', max: this.limits.sharedStringBytes });
    }
    this.slabFill[slab] = offset + written;
    const block = this.count >>> 16;
    if (block === this.starts.length) this.starts.push(new Uint32Array(65_536));
    this.starts[block]![this.count & 0xffff] = slab * SharedStrings.SLAB + offset;
    this.count++;
  }

  get(index: number): string {
    if (!(index >= 0 && index < this.count)) return '';
    const slot = index & 4095;
    if (this.cacheIndex[slot] === index) return this.cacheText[slot]!;
    const text = this.decode(index);
    if (text.length <= 64) {
      this.cacheIndex[slot] = index;
      this.cacheText[slot] = text;
    }
    return text;
  }

  private decode(index: number): string {
    const start = this.starts[index >>> 16]![index & 0xffff]!;
    const slab = Math.floor(start / SharedStrings.SLAB);
    const offset = start - slab * SharedStrings.SLAB;
    let end = this.slabFill[slab]!;
    if (index + 1 < this.count) {
      const next = this.starts[(index + 1) >>> 16]![(index + 1) & 0xffff]!;
      if (next - slab * SharedStrings.SLAB < SharedStrings.SLAB && next >= start)
        end = next - slab * SharedStrings.SLAB;
    }
    return this.slabs[slab]!.toString('utf8', offset, end);
  }
}

/** Only the strings a sample refers to; the part is read no further than the last one. */
export class SelectedStrings implements StringSink {
  done = false;
  private index = 0;
  private readonly last: number;
  readonly values = new Map<number, string>();
  constructor(
    private readonly wanted: Set<number>,
    private readonly limits: XlsxLimits,
  ) {
    let last = -1;
    for (const index of wanted) if (index > last) last = index;
    this.last = last;
    this.done = last < 0;
  }
  add(text: string): void {
    if (this.index >= this.limits.sharedStrings)
      throw new AppError('XLSX_TOO_LARGE', { limit: 'sharedStrings', max: this.limits.sharedStrings });
    if (this.wanted.has(this.index)) this.values.set(this.index, text);
    if (this.index >= this.last) this.done = true;
    this.index++;
  }
  get(index: number): string {
    return this.values.get(index) ?? '';
  }
}

/** `<sst><si><t>…</t></si><si><r><t>rich</t></r><r><t> text</t></r><rPh>…</rPh></si>…` */
export class SharedStringsHandler implements XmlHandler {
  wantText = false;
  tokenizer: XmlTokenizer | undefined;
  private current = '';
  private inItem = false;
  private phonetic = 0;
  constructor(
    private readonly sink: StringSink,
    private readonly limits: XlsxLimits,
  ) {}
  open(name: string): void {
    if (name === 'si') {
      this.inItem = true;
      this.current = '';
    } else if (name === 'rPh') {
      this.phonetic++;
    } else if (name === 't' && this.inItem && this.phonetic === 0) {
      this.wantText = true;
    }
  }
  close(name: string): void {
    if (name === 't') {
      this.wantText = false;
    } else if (name === 'rPh') {
      this.phonetic--;
    } else if (name === 'si') {
      this.inItem = false;
      this.sink.add(unescapeOoxml(this.current));
      this.current = '';
      // Nothing after the last wanted string is even tokenized.
      if (this.sink.done && this.tokenizer) this.tokenizer.paused = true;
    }
  }
  text(text: string): void {
    this.current += text;
    if (this.current.length > this.limits.cellChars * 2)
      throw new AppError('XLSX_TOO_LARGE', { limit: 'cellChars', max: this.limits.cellChars });
  }
}
