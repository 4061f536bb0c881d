/**
 * A streaming ZIP writer: entries are deflated as their bytes come, so an archive of any size
 * is written with a few hundred KB of memory. Sizes and CRC-32 are not known when an entry's
 * local header is written, so each entry has a data descriptor (general purpose flag bit 3) and
 * the central directory carries the real values. Like Go's archive/zip, ZIP64 records appear only
 * when a value passes 32 bits (an entry over 4 GiB, or an archive whose offsets do), so small
 * archives stay readable by every tool. `openZip` (zip.ts) reads them back.
 */

import { once } from 'node:events';
import fs from 'node:fs';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';

const SIG_LOCAL = 0x04034b50;
const SIG_DESCRIPTOR = 0x08074b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
const FLAG_DESCRIPTOR = 0x8;
const FLAG_UTF8 = 0x800;
const VERSION_DEFLATE = 20;
const VERSION_ZIP64 = 45;
/** "Version made by"'s high byte for Unix: readers then take st_mode from the external attributes. */
const HOST_UNIX = 3;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

type WrittenEntry = {
  name: Buffer;
  crc32: number;
  size: number;
  compressedSize: number;
  offset: number;
  dosTime: number;
  dosDate: number;
  /** st_mode (type and permission bits), recorded for Unix when given. */
  stMode: number | undefined;
};

/** One entry being written: `write` its bytes (awaiting each respects backpressure), then `end`. */
export type ZipEntryWriter = {
  write(data: Buffer | string): Promise<void>;
  end(): Promise<void>;
};

export type ZipWriter = {
  /**
   * Starts the next entry; the previous one must have ended. `mode`: its permission bits
   * (0o600…), kept in the archive as Unix tools keep them, so an unpacker can restore them.
   */
  entry(name: string, modifiedAt?: Date, mode?: number): ZipEntryWriter;
  /** Writes the central directory and closes the output. */
  close(): Promise<void>;
};

function dosDateTime(date: Date): { dosTime: number; dosDate: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    dosTime: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    dosDate: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * A ZIP archive written to `file`, created with `mode` (default 0o600: an archive usually holds
 * someone's data). An existing file is replaced, so it never keeps looser permissions.
 */
export function createZipFile(file: string, options: { level?: number; mode?: number } = {}): ZipWriter {
  fs.rmSync(file, { force: true });
  return createZipWriter(fs.createWriteStream(file, { flags: 'wx', mode: options.mode ?? 0o600 }), options);
}

export function createZipWriter(out: Writable, options: { level?: number } = {}): ZipWriter {
  const entries: WrittenEntry[] = [];
  let offset = 0;
  let current: Promise<void> | undefined;
  let busy = false;
  let failure: Error | undefined;
  out.on('error', (err) => {
    failure ??= err;
  });

  async function put(buf: Buffer): Promise<void> {
    if (failure) throw failure;
    offset += buf.length;
    if (!out.write(buf)) await once(out, 'drain');
    if (failure) throw failure;
  }

  function entry(nameText: string, modifiedAt = new Date(), mode?: number): ZipEntryWriter {
    if (busy) throw new Error('zip writer: the previous entry has not ended');
    busy = true;
    const name = Buffer.from(nameText, 'utf8');
    const { dosTime, dosDate } = dosDateTime(modifiedAt);
    const stMode = mode === undefined ? undefined : (nameText.endsWith('/') ? S_IFDIR : S_IFREG) | (mode & 0o7777);
    const written: WrittenEntry = { name, crc32: 0, size: 0, compressedSize: 0, offset, dosTime, dosDate, stMode };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(SIG_LOCAL, 0);
    header.writeUInt16LE(VERSION_DEFLATE, 4);
    header.writeUInt16LE(FLAG_DESCRIPTOR | FLAG_UTF8, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt16LE(dosTime, 10);
    header.writeUInt16LE(dosDate, 12);
    // CRC and sizes (14–25) stay 0: the data descriptor and the central directory have them.
    header.writeUInt16LE(name.length, 26);
    const deflate = zlib.createDeflateRaw({ level: options.level ?? 6 });
    // Compressed bytes go straight to the output, in order, as zlib produces them.
    let pumping = Promise.resolve();
    deflate.on('data', (chunk: Buffer) => {
      written.compressedSize += chunk.length;
      deflate.pause();
      pumping = pumping.then(() => put(chunk)).finally(() => deflate.resume());
      pumping.catch((err: Error) => deflate.destroy(err));
    });
    const started = put(Buffer.concat([header, name]));
    current = started;

    return {
      async write(data) {
        await started;
        const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
        written.size += buf.length;
        written.crc32 = zlib.crc32(buf, written.crc32);
        if (!deflate.write(buf)) await once(deflate, 'drain');
      },
      async end() {
        await started;
        deflate.end();
        await once(deflate, 'end');
        await pumping;
        const zip64 = written.size >= MAX32 || written.compressedSize >= MAX32;
        const descriptor = Buffer.alloc(zip64 ? 24 : 16);
        descriptor.writeUInt32LE(SIG_DESCRIPTOR, 0);
        descriptor.writeUInt32LE(written.crc32, 4);
        if (zip64) {
          descriptor.writeBigUInt64LE(BigInt(written.compressedSize), 8);
          descriptor.writeBigUInt64LE(BigInt(written.size), 16);
        } else {
          descriptor.writeUInt32LE(written.compressedSize, 8);
          descriptor.writeUInt32LE(written.size, 12);
        }
        await put(descriptor);
        entries.push(written);
        busy = false;
      },
    };
  }

  async function close(): Promise<void> {
    if (busy) throw new Error('zip writer: an entry has not ended');
    await current;
    const cdStart = offset;
    for (const e of entries) await put(centralHeader(e));
    const cdSize = offset - cdStart;
    const zip64 = entries.length >= MAX16 || cdStart >= MAX32 || cdSize >= MAX32;
    if (zip64) {
      const recordOffset = offset;
      const record = Buffer.alloc(56);
      record.writeUInt32LE(SIG_ZIP64_EOCD, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(VERSION_ZIP64, 12);
      record.writeUInt16LE(VERSION_ZIP64, 14);
      record.writeBigUInt64LE(BigInt(entries.length), 24);
      record.writeBigUInt64LE(BigInt(entries.length), 32);
      record.writeBigUInt64LE(BigInt(cdSize), 40);
      record.writeBigUInt64LE(BigInt(cdStart), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(SIG_ZIP64_LOCATOR, 0);
      locator.writeBigUInt64LE(BigInt(recordOffset), 8);
      locator.writeUInt32LE(1, 16);
      await put(Buffer.concat([record, locator]));
    }
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(SIG_EOCD, 0);
    eocd.writeUInt16LE(Math.min(entries.length, MAX16), 8);
    eocd.writeUInt16LE(Math.min(entries.length, MAX16), 10);
    eocd.writeUInt32LE(Math.min(cdSize, MAX32), 12);
    eocd.writeUInt32LE(Math.min(cdStart, MAX32), 16);
    await put(eocd);
    out.end();
    await once(out, 'finish');
    if (failure) throw failure;
  }

  return { entry, close };
}

/** The central directory header; the values that pass 32 bits move to a ZIP64 extra field. */
function centralHeader(e: WrittenEntry): Buffer {
  const wide = [e.size, e.compressedSize, e.offset].filter((v) => v >= MAX32);
  const extra = Buffer.alloc(wide.length > 0 ? 4 + 8 * wide.length : 0);
  if (wide.length > 0) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8 * wide.length, 2);
    for (const [i, v] of wide.entries()) extra.writeBigUInt64LE(BigInt(v), 4 + 8 * i);
  }
  const header = Buffer.alloc(46);
  header.writeUInt32LE(SIG_CENTRAL, 0);
  const version = wide.length > 0 ? VERSION_ZIP64 : VERSION_DEFLATE;
  header.writeUInt16LE(e.stMode === undefined ? version : (HOST_UNIX << 8) | version, 4);
  header.writeUInt16LE(version, 6);
  header.writeUInt16LE(FLAG_DESCRIPTOR | FLAG_UTF8, 8);
  header.writeUInt16LE(8, 10);
  header.writeUInt16LE(e.dosTime, 12);
  header.writeUInt16LE(e.dosDate, 14);
  header.writeUInt32LE(e.crc32, 16);
  header.writeUInt32LE(Math.min(e.compressedSize, MAX32), 20);
  header.writeUInt32LE(Math.min(e.size, MAX32), 24);
  header.writeUInt16LE(e.name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  if (e.stMode !== undefined) header.writeUInt32LE(e.stMode * 0x10000, 38);
  header.writeUInt32LE(Math.min(e.offset, MAX32), 42);
  return Buffer.concat([header, e.name, extra]);
}
