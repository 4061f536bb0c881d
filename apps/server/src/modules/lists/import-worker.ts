/**
 * The CPU half of a list import, in a worker thread (see lists.import.ts): reads the file,
 * normalises each phone, drops duplicates, and sends the contacts as ready-made COPY text and
 * the invalid rows in batches. The server's event loop stays free for requests, the parsing
 * runs beside the database work, and the thread's heap is capped (resourceLimits), so a big
 * import cannot swell the server's memory.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type ColumnMapping, normalizeBrazilianPhone } from '@ecoa/shared';
import { AppError, type AppErrorWire } from '../../platform/errors/app-error.ts';
import type { ImportCounts, InvalidInsert } from './lists.repository.ts';
import { columnCountOf, validateMapping } from './parser/mapping.ts';
import { openSpreadsheet } from './parser/source.ts';

export type WorkerInput = {
  listId: string;
  filePath: string;
  mapping: ColumnMapping;
  contactBatch: number;
  invalidBatch: number;
};

export type WorkerMessage =
  | { t: 'header'; header: string[] | null; fieldKeys: string[] }
  | { t: 'contacts'; bytes: Uint8Array; rows: number }
  | { t: 'invalid'; rows: InvalidInsert[] }
  | { t: 'progress'; progress: number; rows: number }
  | { t: 'done'; counts: ImportCounts; ragged: number; timings: Record<string, number> }
  | { t: 'fail'; error: AppErrorWire };

export type ParentMessage = { t: 'ack' };

const SAMPLE_ROWS = 50;
/** Contacts batches sent and not yet written by the server (bounded: the file waits for the database). */
const MAX_IN_FLIGHT = 2;
const MAX_RAGGED_SHARE = 0.1;
const MIN_RAGGED_TO_FAIL = 10;
export const RAGGED_ROW = 'RAGGED_ROW';

/** COPY text format: backslash, tab, newline and carriage return are escaped; null is \N. */
export function copyText(value: string | null): string {
  if (value === null) return '\\N';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 92 || c === 9 || c === 10 || c === 13) {
      return value.replace(/[\\\t\n\r]/g, (m) =>
        m === '\\' ? '\\\\' : m === '\t' ? '\\t' : m === '\n' ? '\\n' : '\\r',
      );
    }
  }
  return value;
}

/**
 * COPY text written straight as UTF-8 bytes: no per-row strings to build, join and collect.
 */
class CopySink {
  buf = Buffer.allocUnsafeSlow(1 << 20);
  len = 0;
  rows = 0;

  private ensure(bytes: number): void {
    if (this.len + bytes <= this.buf.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.len + bytes));
    this.buf.copy(bigger, 0, 0, this.len);
    this.buf = bigger;
  }
  bytes(b: Buffer): void {
    this.ensure(b.length);
    b.copy(this.buf, this.len);
    this.len += b.length;
  }
  byte(c: number): void {
    this.ensure(1);
    this.buf[this.len++] = c;
  }
  /** ASCII text (digits, E.164). */
  ascii(text: string): void {
    this.ensure(text.length);
    for (let i = 0; i < text.length; i++) this.buf[this.len++] = text.charCodeAt(i);
  }
  utf8(text: string): void {
    this.ensure(text.length * 3);
    this.len += this.buf.write(text, this.len, 'utf8');
  }
  /** A value for a COPY text column. */
  copyValue(text: string): void {
    this.utf8(copyText(text));
  }
  /** A JSON string value inside the fields column (JSON-escaped, then COPY-escaped). */
  jsonValue(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) {
        this.utf8(copyText(JSON.stringify(text)));
        return;
      }
    }
    this.byte(34);
    this.utf8(text);
    this.byte(34);
  }
  /** The batch as an exact-size copy (the sink's buffer is reused). */
  take(): { bytes: Uint8Array; rows: number } {
    const out = { bytes: Uint8Array.prototype.slice.call(this.buf, 0, this.len), rows: this.rows };
    this.len = 0;
    this.rows = 0;
    return out;
  }
}

const TAB = 9;
const NEWLINE = 10;
const NULL_VALUE = Buffer.from('\\N');
const KIND = { mobile: Buffer.from('mobile'), landline: Buffer.from('landline') };

export async function run(
  input: WorkerInput,
  post: (m: WorkerMessage, transfer?: ArrayBuffer[]) => void,
  acked: () => Promise<void>,
) {
  const timings: Record<string, number> = { read: 0, rows: 0, waitDb: 0 };
  const sheet = await openSpreadsheet(input.filePath);
  const rows = sheet.rows();
  const counts: ImportCounts = { total: 0, valid: 0, mobiles: 0, landlines: 0, invalid: 0, duplicates: 0 };
  // Per DDD, the subscriber numbers seen (≤ 9 digits: small integers, cheap to hash and store).
  const seen: (Set<number> | undefined)[] = [];
  const listId = input.listId;
  let ragged = 0;
  let rowNumber = 0;
  const sink = new CopySink();
  const listIdTab = Buffer.from(`${listId}\t`);
  let invalid: InvalidInsert[] = [];
  let inFlight = 0;

  let pending: string[][] = [];
  let t = performance.now();
  for (;;) {
    const next = await rows.next();
    if (next.done) break;
    pending = pending.concat(next.value);
    if (pending.length >= SAMPLE_ROWS) break;
  }
  timings.read! += performance.now() - t;
  if (pending.length === 0) throw new AppError('NO_DATA_ROWS');
  const mapping = validateMapping(input.mapping, columnCountOf(pending.slice(0, SAMPLE_ROWS)));
  const header = mapping.hasHeader ? pending[0]! : null;
  const expected = header ? header.length : columnCountOf(pending.slice(0, SAMPLE_ROWS));
  const phoneCol = mapping.phone;
  const nameCol = mapping.name;
  const fieldCols = mapping.fields.map((f) => f.column);
  const fieldPrefixes = mapping.fields.map((f) => Buffer.from(copyText(`${JSON.stringify(f.key)}:`)));
  post({ t: 'header', header, fieldKeys: mapping.fields.map((f) => f.key) });
  if (header) {
    pending = pending.slice(1);
    rowNumber = 1;
  }

  const sendContacts = async () => {
    if (sink.rows === 0) return;
    const { bytes, rows: count } = sink.take();
    inFlight++;
    // Cloned, not transferred: a buffer allocated on the receiving side is counted by its garbage
    // collector, so the server thread frees them as it goes (transferred ones piled up on PGlite).
    post({ t: 'contacts', bytes, rows: count });
    const w = performance.now();
    while (inFlight >= MAX_IN_FLIGHT) {
      await acked();
      inFlight--;
    }
    timings.waitDb! += performance.now() - w;
  };

  const processRow = (row: string[]) => {
    rowNumber++;
    counts.total++;
    if (row.length > expected) {
      for (let i = expected; i < row.length; i++) {
        if (row[i]!.trim() !== '') {
          ragged++;
          counts.invalid++;
          invalid.push({ rowNumber, reason: RAGGED_ROW, cellsJson: JSON.stringify(row) });
          return;
        }
      }
    }
    const phone = normalizeBrazilianPhone(row[phoneCol] ?? '');
    if (!phone.ok) {
      counts.invalid++;
      invalid.push({ rowNumber, reason: phone.reason, cellsJson: JSON.stringify(row) });
      return;
    }
    const e164 = phone.e164;
    const ddd = (e164.charCodeAt(3) - 48) * 10 + (e164.charCodeAt(4) - 48);
    let subscriber = 0;
    for (let i = 5; i < e164.length; i++) subscriber = subscriber * 10 + (e164.charCodeAt(i) - 48);
    let numbers = seen[ddd];
    if (!numbers) {
      numbers = new Set<number>();
      seen[ddd] = numbers;
    }
    if (numbers.has(subscriber)) {
      counts.duplicates++;
      return;
    }
    numbers.add(subscriber);
    counts.valid++;
    if (phone.kind === 'mobile') counts.mobiles++;
    else counts.landlines++;

    // list_id \t row_number \t phone \t kind \t name \t fields \n
    sink.bytes(listIdTab);
    sink.ascii(String(rowNumber));
    sink.byte(TAB);
    sink.ascii(e164);
    sink.byte(TAB);
    sink.bytes(KIND[phone.kind]);
    sink.byte(TAB);
    const name = nameCol === null ? '' : (row[nameCol]?.trim() ?? '');
    if (name) sink.copyValue(name);
    else sink.bytes(NULL_VALUE);
    sink.byte(TAB);
    let any = false;
    for (let i = 0; i < fieldCols.length; i++) {
      const value = row[fieldCols[i]!];
      if (value === undefined || value === '') continue;
      const trimmed = value.trim();
      if (trimmed === '') continue;
      sink.byte(any ? 44 /* , */ : 123 /* { */);
      any = true;
      sink.bytes(fieldPrefixes[i]!);
      sink.jsonValue(trimmed);
    }
    if (any) sink.byte(125 /* } */);
    else sink.bytes(NULL_VALUE);
    sink.byte(NEWLINE);
    sink.rows++;
  };

  let batch: string[][] | undefined = pending;
  while (batch) {
    t = performance.now();
    for (let i = 0; i < batch.length; i++) processRow(batch[i]!);
    timings.rows! += performance.now() - t;
    batch = undefined;
    if (counts.total >= 1000 && ragged > counts.total * 0.5) throw new AppError('CSV_RAGGED', { rows: ragged });
    if (invalid.length >= input.invalidBatch) {
      post({ t: 'invalid', rows: invalid });
      invalid = [];
    }
    if (sink.rows >= input.contactBatch) await sendContacts();
    post({
      t: 'progress',
      progress: Math.min(99, Math.floor((sheet.bytesRead() / sheet.size) * 100)),
      rows: counts.total,
    });
    t = performance.now();
    const next = await rows.next();
    timings.read! += performance.now() - t;
    batch = next.done ? undefined : next.value;
  }
  if (counts.total === 0) throw new AppError('NO_DATA_ROWS');
  if (ragged >= MIN_RAGGED_TO_FAIL && ragged > counts.total * MAX_RAGGED_SHARE) {
    throw new AppError('CSV_RAGGED', { rows: ragged });
  }
  await sendContacts();
  if (invalid.length > 0) post({ t: 'invalid', rows: invalid });
  const w = performance.now();
  while (inFlight > 0) {
    await acked();
    inFlight--;
  }
  timings.waitDb! += performance.now() - w;
  post({ t: 'done', counts, ragged, timings });
}

// Started as the import's own thread (lists.import.ts hands it a WorkerInput). Any other worker
// thread that imports this module (lists.import.ts re-exports RAGGED_ROW; a test runner's thread
// pool, e.g. Stryker's) has a parentPort too, and must not start an import of nothing.
if (parentPort && typeof (workerData as Partial<WorkerInput> | undefined)?.filePath === 'string') {
  const port = parentPort;
  const waiting: (() => void)[] = [];
  let acks = 0;
  port.on('message', (m: ParentMessage) => {
    if (m.t !== 'ack') return;
    const resolve = waiting.shift();
    if (resolve) resolve();
    else acks++;
  });
  const acked = () =>
    new Promise<void>((resolve) => {
      if (acks > 0) {
        acks--;
        resolve();
      } else waiting.push(resolve);
    });
  run(workerData as WorkerInput, (m, transfer) => port.postMessage(m, transfer), acked).then(
    () => port.close(),
    (err: unknown) => {
      if (err instanceof AppError) {
        port.postMessage({ t: 'fail', error: err.toWire() });
        port.close();
        return;
      }
      throw err;
    },
  );
}
