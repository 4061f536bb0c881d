import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { AppError } from '../../../platform/errors/app-error.ts';

export type FileKind = 'csv' | 'xlsx';
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** How many bytes the type and delimiter sniffing reads. */
export const SNIFF_BYTES = 64 * 1024;

/**
 * Decides the file type by its content, not its name: XLSX is a ZIP (`PK\x03\x04`), CSV must
 * be text. Old `.xls` (OLE2) and other binaries are refused with their own code.
 */
export function sniffKind(head: Buffer): FileKind {
  if (head.length === 0) throw new AppError('EMPTY_FILE');
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'xlsx';
  if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x05 || head[2] === 0x07)) throw new AppError('XLSX_BROKEN');
  if (head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0) throw new AppError('LEGACY_XLS');
  const bom = bomOf(head);
  if (bom === 'utf-16le' || bom === 'utf-16be') return 'csv';
  if (!looksLikeText(head)) throw new AppError('UNSUPPORTED_FILE_TYPE');
  return 'csv';
}

export function bomOf(head: Buffer): TextEncoding | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * Text has few control characters (PDFs, images and executables have many, NUL bytes above all).
 * A stray NUL in a real CSV counts as one control character: the sanitizer drops it from the
 * cell, as it does anywhere else in the file.
 */
function looksLikeText(head: Buffer): boolean {
  let control = 0;
  for (let i = 0; i < head.length; i++) {
    const b = head[i]!;
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12) control++;
  }
  return control <= Math.max(1, head.length * 0.01);
}

/**
 * The text encoding of a CSV: a BOM decides; otherwise the whole file is checked as UTF-8
 * (fast, streaming) and, when it is not valid UTF-8, it is read as Windows-1252 — what Excel
 * in Brazil writes (a superset of ISO-8859-1 for printable characters).
 */
export async function detectEncoding(filePath: string): Promise<TextEncoding> {
  const head = await readHead(filePath, 4);
  const bom = bomOf(head);
  if (bom) return bom;
  // buffer.isUtf8 is native and fast; a sequence cut by a chunk boundary is carried over.
  let carry: Buffer = Buffer.alloc(0);
  for await (const raw of fs.createReadStream(filePath, { highWaterMark: 1024 * 1024 })) {
    const chunk = carry.length > 0 ? Buffer.concat([carry, raw as Buffer]) : (raw as Buffer);
    const end = completeUtf8Length(chunk);
    if (!isUtf8(chunk.subarray(0, end))) return 'windows-1252';
    carry = Buffer.from(chunk.subarray(end));
    if (carry.length > 3) return 'windows-1252';
  }
  return carry.length === 0 ? 'utf-8' : 'windows-1252';
}

/** Length of `b` without a trailing incomplete UTF-8 sequence (at most 3 bytes are held back). */
function completeUtf8Length(b: Buffer): number {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const byte = b[b.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: look further back
    if (byte < 0x80) return b.length;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return need > back ? b.length - back : b.length;
  }
  return b.length;
}

/** The same decision on a sample only (the preview of the first rows). */
export function detectEncodingOfSample(sample: Buffer, complete: boolean): TextEncoding {
  const bom = bomOf(sample);
  if (bom) return bom;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(sample, { stream: !complete });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

export async function readHead(filePath: string, bytes = SNIFF_BYTES): Promise<Buffer> {
  const handle = await fs.promises.open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
