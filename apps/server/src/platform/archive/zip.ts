/**
 * A bounded ZIP reader: the central directory (EOCD, ZIP64), then one entry at a time as a
 * stream of inflated bytes (stored and deflate only).
 *
 * Nothing the archive declares is trusted: sizes, offsets and ratios declared in the headers
 * only serve to refuse early; the real inflated bytes are counted as they come out of zlib and
 * the stream fails at once when an entry, the whole archive or the compression ratio passes its
 * limit (ZipLimitError names which). Headers that contradict each other, truncated data, entries
 * that overlap (the "zip bomb by overlapping files" trick), absurd offsets, a wrong size or CRC
 * fail with ZipFormatError. Each entry stream reads through its own file handle, closed when the
 * stream ends or is destroyed; the archive object itself holds no handle.
 */
import fs from 'node:fs';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';

export type ZipLimits = {
  /** Entries in the central directory. */
  maxEntries: number;
  /** Inflated bytes of one entry. */
  maxEntryBytes: number;
  /** Inflated bytes of every entry read from the archive, together. */
  maxTotalBytes: number;
  /** Inflated bytes per compressed byte of an entry, checked once it passes `ratioMinBytes`. */
  maxRatio: number;
  ratioMinBytes: number;
  /** The central directory is read whole into memory. */
  maxCentralDirectoryBytes: number;
};

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Defaults for an archive nobody vouches for; callers with known, bigger files pass their own. */
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 1 * GiB,
  maxTotalBytes: 4 * GiB,
  // Text and XML deflate 5–20×, sparse sheets up to ~100×; a bomb runs at deflate's 1,032× maximum.
  maxRatio: 200,
  ratioMinBytes: 1 * MiB,
  maxCentralDirectoryBytes: 64 * MiB,
};

export type ZipLimitName = 'entries' | 'entryBytes' | 'totalBytes' | 'ratio' | 'centralDirectoryBytes';

/** A limit was passed: which one, the value reached (or declared) and its maximum. */
export class ZipLimitError extends Error {
  constructor(
    readonly limit: ZipLimitName,
    readonly value: number,
    readonly max: number,
    readonly entry?: string,
  ) {
    super(`zip limit passed: ${limit} ${value} > ${max}${entry ? ` (${entry})` : ''}`);
    this.name = 'ZipLimitError';
  }
}

/** Not a readable ZIP: broken (truncated, inconsistent, overlapping) or unsupported (method, encryption, multi-disk). */
export class ZipFormatError extends Error {
  constructor(
    message: string,
    readonly unsupported = false,
  ) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

export type ZipEntry = {
  readonly name: string;
  /** 0 stored, 8 deflate; anything else fails when opened. */
  readonly method: number;
  readonly flags: number;
  readonly crc32: number;
  readonly compressedSize: number;
  /** As declared: only used to refuse early and to check the real size at the end. */
  readonly size: number;
  readonly localHeaderOffset: number;
  readonly isDirectory: boolean;
  /** Permission bits (0o600…) when the archive was made on Unix and recorded them; else undefined. */
  readonly unixMode: number | undefined;
};

export type ZipArchive = {
  readonly entries: readonly ZipEntry[];
  find(name: string): ZipEntry | undefined;
  /**
   * The entry's inflated bytes. `maxBytes` lowers the per-entry limit for this read. The stream
   * errors with ZipLimitError / ZipFormatError; destroying it closes its file handle.
   */
  openEntry(entry: ZipEntry, options?: { maxBytes?: number }): Promise<EntryStream>;
  /** The whole entry in memory (for small parts: pass a `maxBytes`). */
  readEntry(entry: ZipEntry, options?: { maxBytes?: number }): Promise<Buffer>;
  /** Inflated bytes read from the archive so far (all entries). */
  inflatedBytes(): number;
};

/** An entry's inflated bytes, with the compressed bytes read so far (for progress). */
export type EntryStream = Readable & { compressedBytesRead(): number };

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIZE = 56;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
const FLAG_ENCRYPTED = 0x1;
const FLAG_STRONG_ENCRYPTION = 0x40;
const FLAG_UTF8 = 0x800;
const READ_CHUNK = 64 * 1024;

/** "Version made by"'s high byte for Unix (APPNOTE 4.4.2). */
const HOST_UNIX = 3;

type Entry = ZipEntry & { nameBytes: Buffer; dataLimit: number };

const broken = (message: string) => new ZipFormatError(`broken zip: ${message}`);
const unsupported = (message: string) => new ZipFormatError(`unsupported zip: ${message}`, true);

function u64(buf: Buffer, at: number, what: string): number {
  const value = buf.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw broken(`absurd ${what}`);
  return Number(value);
}

async function readAt(handle: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buf, done, length - done, position + done);
    if (bytesRead === 0) throw broken('truncated');
    done += bytesRead;
  }
  return buf;
}

function decodeName(bytes: Buffer, flags: number): string {
  if (flags & FLAG_UTF8) return bytes.toString('utf8');
  // CP437 without the flag: ASCII is the same; other bytes are read as Latin-1 (close enough for names).
  return bytes.toString('latin1');
}

/** The ZIP64 extended information extra field: the 64-bit values of the fields saturated in the header. */
function zip64Extra(
  extra: Buffer,
  want: { size: boolean; compressedSize: boolean; offset: boolean },
): { size?: number; compressedSize?: number; offset?: number } {
  for (let p = 0; p + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(p);
    const len = extra.readUInt16LE(p + 2);
    if (p + 4 + len > extra.length) throw broken('extra field runs past its header');
    if (id === 0x0001) {
      const out: { size?: number; compressedSize?: number; offset?: number } = {};
      let q = p + 4;
      const end = p + 4 + len;
      for (const key of ['size', 'compressedSize', 'offset'] as const) {
        if (!want[key]) continue;
        if (q + 8 > end) throw broken('short ZIP64 extra field');
        out[key] = u64(extra, q, key);
        q += 8;
      }
      return out;
    }
    p += 4 + len;
  }
  throw broken('ZIP64 value without its extra field');
}

async function readCentralDirectory(
  handle: fs.promises.FileHandle,
  fileSize: number,
  limits: ZipLimits,
): Promise<{ entries: Entry[]; cdOffset: number }> {
  if (fileSize < EOCD_SIZE) throw broken('too short for an end of central directory');
  const tailLength = Math.min(fileSize, EOCD_SIZE + MAX16);
  const tail = await readAt(handle, fileSize - tailLength, tailLength);
  // The EOCD is the last signature whose comment runs exactly to the end of the file.
  let at = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) === SIG_EOCD && i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) throw broken('no end of central directory record');
  const eocdOffset = fileSize - tailLength + at;
  const disk = tail.readUInt16LE(at + 4);
  const cdDisk = tail.readUInt16LE(at + 6);
  let diskEntries = tail.readUInt16LE(at + 8);
  let total = tail.readUInt16LE(at + 10);
  let cdSize = tail.readUInt32LE(at + 12);
  let cdOffset = tail.readUInt32LE(at + 16);
  let cdEnd = eocdOffset;

  if (eocdOffset >= ZIP64_LOCATOR_SIZE) {
    const locator = await readAt(handle, eocdOffset - ZIP64_LOCATOR_SIZE, ZIP64_LOCATOR_SIZE);
    if (locator.readUInt32LE(0) === SIG_ZIP64_LOCATOR) {
      if (locator.readUInt32LE(4) !== 0 || locator.readUInt32LE(16) > 1) throw unsupported('multi-disk archive');
      const recordOffset = u64(locator, 8, 'ZIP64 end of central directory offset');
      if (recordOffset + ZIP64_EOCD_SIZE > eocdOffset - ZIP64_LOCATOR_SIZE) {
        throw broken('ZIP64 end of central directory out of place');
      }
      const record = await readAt(handle, recordOffset, ZIP64_EOCD_SIZE);
      if (record.readUInt32LE(0) !== SIG_ZIP64_EOCD) throw broken('no ZIP64 end of central directory record');
      if (record.readUInt32LE(16) !== 0 || record.readUInt32LE(20) !== 0) throw unsupported('multi-disk archive');
      diskEntries = u64(record, 24, 'entry count');
      total = u64(record, 32, 'entry count');
      cdSize = u64(record, 40, 'central directory size');
      cdOffset = u64(record, 48, 'central directory offset');
      cdEnd = recordOffset;
    } else if (total === MAX16 || cdSize === MAX32 || cdOffset === MAX32) {
      throw broken('ZIP64 values without a ZIP64 end of central directory');
    }
  }
  if (cdEnd === eocdOffset && (disk !== 0 || cdDisk !== 0)) throw unsupported('multi-disk archive');
  if (diskEntries !== total) throw unsupported('multi-disk archive');
  if (total > limits.maxEntries) throw new ZipLimitError('entries', total, limits.maxEntries);
  if (cdSize > limits.maxCentralDirectoryBytes) {
    throw new ZipLimitError('centralDirectoryBytes', cdSize, limits.maxCentralDirectoryBytes);
  }
  if (cdOffset + cdSize > cdEnd) throw broken('central directory runs past its end record');
  if (cdSize < total * CENTRAL_SIZE) throw broken('central directory too small for its entries');

  const cd = await readAt(handle, cdOffset, cdSize);
  const entries: Entry[] = [];
  const names = new Set<string>();
  let p = 0;
  for (let k = 0; k < total; k++) {
    if (p + CENTRAL_SIZE > cd.length || cd.readUInt32LE(p) !== SIG_CENTRAL)
      throw broken(`central directory entry ${k}`);
    const madeOn = cd.readUInt16LE(p + 4) >> 8;
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    // Unix tools (and zip-writer.ts) keep st_mode in the high half of the external attributes.
    const stMode = cd.readUInt32LE(p + 38) >>> 16;
    const crc32 = cd.readUInt32LE(p + 16);
    let compressedSize = cd.readUInt32LE(p + 20);
    let size = cd.readUInt32LE(p + 24);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    const entryDisk = cd.readUInt16LE(p + 34);
    let localHeaderOffset = cd.readUInt32LE(p + 42);
    const end = p + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (end > cd.length) throw broken(`central directory entry ${k} runs past the directory`);
    const nameBytes = Buffer.from(cd.subarray(p + CENTRAL_SIZE, p + CENTRAL_SIZE + nameLength));
    if (size === MAX32 || compressedSize === MAX32 || localHeaderOffset === MAX32) {
      const extra = cd.subarray(p + CENTRAL_SIZE + nameLength, p + CENTRAL_SIZE + nameLength + extraLength);
      const wide = zip64Extra(extra, {
        size: size === MAX32,
        compressedSize: compressedSize === MAX32,
        offset: localHeaderOffset === MAX32,
      });
      size = wide.size ?? size;
      compressedSize = wide.compressedSize ?? compressedSize;
      localHeaderOffset = wide.offset ?? localHeaderOffset;
    }
    if (entryDisk !== 0 && entryDisk !== MAX16) throw unsupported('multi-disk archive');
    const name = decodeName(nameBytes, flags);
    if (name.length === 0) throw broken(`entry ${k} has no name`);
    if (names.has(name)) throw broken(`two entries named ${name}`);
    names.add(name);
    entries.push({
      name,
      nameBytes,
      method,
      flags,
      crc32,
      compressedSize,
      size,
      localHeaderOffset,
      isDirectory: name.endsWith('/'),
      unixMode: madeOn === HOST_UNIX && stMode !== 0 ? stMode & 0o7777 : undefined,
      dataLimit: cdOffset,
    });
    p = end;
  }

  // Each entry's header and data must end before the next entry's header (or the directory):
  // entries sharing or overlapping bytes are how a small file inflates to terabytes.
  const byOffset = [...entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  for (let i = 0; i < byOffset.length; i++) {
    const entry = byOffset[i]!;
    const next = i + 1 < byOffset.length ? byOffset[i + 1]!.localHeaderOffset : cdOffset;
    const minimalEnd = entry.localHeaderOffset + LOCAL_SIZE + entry.nameBytes.length + entry.compressedSize;
    if (minimalEnd > next) throw broken(`entry ${entry.name} overlaps the next entry or the central directory`);
    entry.dataLimit = next;
  }
  return { entries, cdOffset };
}

export async function openZip(filePath: string, options: Partial<ZipLimits> = {}): Promise<ZipArchive> {
  const limits: ZipLimits = { ...DEFAULT_ZIP_LIMITS, ...options };
  const handle = await fs.promises.open(filePath, 'r');
  let entries: Entry[];
  try {
    const { size } = await handle.stat();
    ({ entries } = await readCentralDirectory(handle, size, limits));
  } finally {
    await handle.close();
  }
  const byName = new Map(entries.map((e) => [e.name, e]));
  const inflated = { bytes: 0 };

  async function openEntry(entry: ZipEntry, opts: { maxBytes?: number } = {}): Promise<EntryStream> {
    const e = byName.get(entry.name);
    if (e !== entry) throw new Error(`not an entry of this archive: ${entry.name}`);
    if (e.flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) throw unsupported(`${e.name} is encrypted`);
    if (e.method !== 0 && e.method !== 8) throw unsupported(`${e.name} uses compression method ${e.method}`);
    const maxBytes = Math.min(opts.maxBytes ?? limits.maxEntryBytes, limits.maxEntryBytes);
    // Refuse early on what the headers declare; the real bytes are checked as they come.
    if (e.size > maxBytes) throw new ZipLimitError('entryBytes', e.size, maxBytes, e.name);
    if (inflated.bytes + e.size > limits.maxTotalBytes) {
      throw new ZipLimitError('totalBytes', inflated.bytes + e.size, limits.maxTotalBytes, e.name);
    }
    if (e.size >= limits.ratioMinBytes && e.size > limits.maxRatio * e.compressedSize) {
      throw new ZipLimitError('ratio', Math.round(e.size / Math.max(1, e.compressedSize)), limits.maxRatio, e.name);
    }
    if (e.method === 0 && e.size !== e.compressedSize) throw broken(`stored entry ${e.name} with two sizes`);

    const handle = await fs.promises.open(filePath, 'r');
    let dataStart: number;
    try {
      dataStart = await checkLocalHeader(handle, e);
    } catch (err) {
      await handle.close();
      throw err;
    }
    const output = new EntryOutput(e, maxBytes, limits, inflated);
    if (e.compressedSize === 0) {
      await handle.close();
      if (e.method === 8) throw broken(`empty deflate data in ${e.name}`);
      output.end();
      return output;
    }
    const raw = handle.createReadStream({
      start: dataStart,
      end: dataStart + e.compressedSize - 1,
      highWaterMark: READ_CHUNK,
      autoClose: true,
    });
    raw.on('data', (chunk: string | Buffer) => {
      output.compressed += chunk.length;
    });
    raw.on('error', (err) => output.destroy(broken(`${e.name}: ${err.message}`)));
    raw.on('end', () => {
      if (output.compressed !== e.compressedSize) output.destroy(broken(`${e.name} is truncated`));
    });
    if (e.method === 8) {
      const inflate = zlib.createInflateRaw({ chunkSize: READ_CHUNK });
      inflate.on('error', (err) => output.destroy(broken(`${e.name}: ${err.message}`)));
      output.on('close', () => inflate.destroy());
      raw.pipe(inflate).pipe(output);
    } else {
      raw.pipe(output);
    }
    output.on('close', () => raw.destroy());
    return output;
  }

  return {
    entries,
    find: (name) => byName.get(name),
    openEntry,
    async readEntry(entry, opts = {}) {
      const chunks: Buffer[] = [];
      for await (const chunk of await openEntry(entry, opts)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    inflatedBytes: () => inflated.bytes,
  };
}

/** Reads and checks the local header against the central directory; returns where the data starts. */
async function checkLocalHeader(handle: fs.promises.FileHandle, e: Entry): Promise<number> {
  if (e.localHeaderOffset + LOCAL_SIZE > e.dataLimit) throw broken(`${e.name}: local header out of place`);
  const header = await readAt(handle, e.localHeaderOffset, LOCAL_SIZE);
  if (header.readUInt32LE(0) !== SIG_LOCAL) throw broken(`${e.name}: no local header at its offset`);
  const flags = header.readUInt16LE(6);
  const method = header.readUInt16LE(8);
  const nameLength = header.readUInt16LE(26);
  const extraLength = header.readUInt16LE(28);
  const dataStart = e.localHeaderOffset + LOCAL_SIZE + nameLength + extraLength;
  if (dataStart + e.compressedSize > e.dataLimit) {
    throw broken(`${e.name}: data overlaps the next entry or the central directory`);
  }
  const differs = (what: string) => broken(`${e.name}: local header differs from the central directory (${what})`);
  if (method !== e.method) throw differs('method');
  if ((flags & FLAG_ENCRYPTED) !== (e.flags & FLAG_ENCRYPTED)) throw differs('encryption');
  const rest = await readAt(handle, e.localHeaderOffset + LOCAL_SIZE, nameLength + extraLength);
  if (!rest.subarray(0, nameLength).equals(e.nameBytes)) throw differs('name');
  // With a data descriptor (flag bit 3) the local sizes and CRC may be zero; the directory's are used.
  if (!(flags & 0x8)) {
    let compressedSize = header.readUInt32LE(18);
    let size = header.readUInt32LE(22);
    if (size === MAX32 || compressedSize === MAX32) {
      const wide = zip64Extra(rest.subarray(nameLength), {
        size: size === MAX32,
        compressedSize: compressedSize === MAX32,
        offset: false,
      });
      size = wide.size ?? size;
      compressedSize = wide.compressedSize ?? compressedSize;
    }
    if (header.readUInt32LE(14) !== e.crc32) throw differs('CRC');
    if (size !== e.size || compressedSize !== e.compressedSize) throw differs('sizes');
  }
  return dataStart;
}

/** Counts the real inflated bytes and fails at once on a limit, a size or a CRC that differs. */
class EntryOutput extends Transform {
  compressed = 0;
  private bytes = 0;
  private crc = 0;

  constructor(
    private readonly entry: Entry,
    private readonly maxBytes: number,
    private readonly limits: ZipLimits,
    private readonly inflated: { bytes: number },
  ) {
    // Room for a few inflated chunks, so zlib (in the thread pool) keeps ahead of the reader.
    super({ readableHighWaterMark: 4 * READ_CHUNK });
  }

  compressedBytesRead(): number {
    return this.compressed;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.inflated.bytes += chunk.length;
    const error = this.check();
    if (error) {
      callback(error);
      return;
    }
    this.crc = zlib.crc32(chunk, this.crc);
    callback(null, chunk);
  }

  private check(): Error | undefined {
    const { entry, limits } = this;
    if (this.bytes > this.maxBytes) return new ZipLimitError('entryBytes', this.bytes, this.maxBytes, entry.name);
    if (this.inflated.bytes > limits.maxTotalBytes) {
      return new ZipLimitError('totalBytes', this.inflated.bytes, limits.maxTotalBytes, entry.name);
    }
    // `compressed` counts what was handed to zlib, at least what it consumed: the ratio is never overstated.
    if (this.bytes >= limits.ratioMinBytes && this.bytes > limits.maxRatio * this.compressed) {
      return new ZipLimitError(
        'ratio',
        Math.round(this.bytes / Math.max(1, this.compressed)),
        limits.maxRatio,
        entry.name,
      );
    }
    if (this.bytes > entry.size) return broken(`${entry.name} inflates past its declared size`);
    return undefined;
  }

  override _flush(callback: TransformCallback): void {
    if (this.bytes !== this.entry.size) callback(broken(`${this.entry.name} is shorter than declared`));
    else if (this.crc !== this.entry.crc32) callback(broken(`${this.entry.name} fails its CRC check`));
    else callback();
  }
}
