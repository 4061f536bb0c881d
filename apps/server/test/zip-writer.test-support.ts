/**
 * A tiny ZIP writer for tests: real archives by default, and control over everything a hostile
 * archive lies about (declared sizes, CRC, method, flags, the local header, offsets, ZIP64).
 */
import zlib from 'node:zlib';

export type TestZipEntry = {
  name: string;
  data?: Buffer | string;
  /** 0 stored, 8 deflate (default); any other number is written as is (with `compressed`). */
  method?: number;
  /** The bytes stored as the entry's data instead of `data` compressed. */
  compressed?: Buffer;
  flags?: number;
  /** Declared values (default: the real ones), in both headers unless `local` says otherwise. */
  crc32?: number;
  size?: number;
  compressedSize?: number;
  /** What the local header says, when it must differ from the central directory. */
  local?: { name?: string; method?: number; crc32?: number; size?: number; compressedSize?: number; flags?: number };
  /** The local header offset written in the central directory (default: where it really is). */
  offset?: number;
  /** Only a central directory entry (pointing at `offset`), no local header or data. */
  centralOnly?: boolean;
};

export type TestZipOptions = {
  /** ZIP64 records and extra fields even for a small archive. */
  zip64?: boolean;
  /** Bytes before the first entry (moves every real offset). */
  prefix?: Buffer;
  comment?: string;
  /** Declared entry count in the end record (default: the real one). */
  declaredEntries?: number;
};

const MAX32 = 0xffffffff;

export function deflateRaw(data: Buffer | string): Buffer {
  return zlib.deflateRawSync(typeof data === 'string' ? Buffer.from(data) : data);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}
function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

type Prepared = {
  entry: TestZipEntry;
  name: Buffer;
  method: number;
  flags: number;
  crc32: number;
  size: number;
  compressedSize: number;
  body: Buffer;
};

function prepare(entry: TestZipEntry): Prepared {
  const data = entry.data === undefined ? Buffer.alloc(0) : Buffer.from(entry.data);
  const method = entry.method ?? 8;
  const body = entry.compressed ?? (method === 8 ? deflateRaw(data) : data);
  return {
    entry,
    name: Buffer.from(entry.name),
    method,
    flags: (entry.flags ?? 0) | 0x800,
    crc32: entry.crc32 ?? zlib.crc32(data),
    size: entry.size ?? data.length,
    compressedSize: entry.compressedSize ?? body.length,
    body,
  };
}

export function localHeader(p: Prepared, zip64: boolean): Buffer {
  const l = p.entry.local ?? {};
  const name = l.name === undefined ? p.name : Buffer.from(l.name);
  const size = l.size ?? p.size;
  const compressedSize = l.compressedSize ?? p.compressedSize;
  const extra = zip64 ? Buffer.concat([u16(1), u16(16), u64(size), u64(compressedSize)]) : Buffer.alloc(0);
  return Buffer.concat([
    u32(0x04034b50),
    u16(zip64 ? 45 : 20),
    u16(l.flags ?? p.flags),
    u16(l.method ?? p.method),
    u16(0),
    u16(0x21),
    u32(l.crc32 ?? p.crc32),
    u32(zip64 ? MAX32 : compressedSize),
    u32(zip64 ? MAX32 : size),
    u16(name.length),
    u16(extra.length),
    name,
    extra,
  ]);
}

function centralHeader(p: Prepared, offset: number, zip64: boolean): Buffer {
  const extra = zip64
    ? Buffer.concat([u16(1), u16(24), u64(p.size), u64(p.compressedSize), u64(offset)])
    : Buffer.alloc(0);
  return Buffer.concat([
    u32(0x02014b50),
    u16(zip64 ? 45 : 20),
    u16(zip64 ? 45 : 20),
    u16(p.flags),
    u16(p.method),
    u16(0),
    u16(0x21),
    u32(p.crc32),
    u32(zip64 ? MAX32 : p.compressedSize),
    u32(zip64 ? MAX32 : p.size),
    u16(p.name.length),
    u16(extra.length),
    u16(0),
    u16(0),
    u16(0),
    u32(0),
    u32(zip64 ? MAX32 : offset),
    p.name,
    extra,
  ]);
}

/**
 * The archive's parts, for tests that lay them out by hand: each entry's local header + data
 * (in order), and `directory(offsets, start)` → central directory + end records.
 */
export function zipParts(entries: TestZipEntry[], options: TestZipOptions = {}) {
  const zip64 = options.zip64 === true;
  const prepared = entries.map(prepare);
  return {
    prepared,
    locals: prepared.map((p) =>
      p.entry.centralOnly ? Buffer.alloc(0) : Buffer.concat([localHeader(p, zip64), p.body]),
    ),
    directory(offsets: number[], cdOffset: number): Buffer {
      const central = Buffer.concat(prepared.map((p, i) => centralHeader(p, p.entry.offset ?? offsets[i]!, zip64)));
      const count = options.declaredEntries ?? prepared.length;
      const comment = Buffer.from(options.comment ?? '');
      const tail: Buffer[] = [central];
      if (zip64) {
        const recordOffset = cdOffset + central.length;
        tail.push(
          u32(0x06064b50),
          u64(44),
          u16(45),
          u16(45),
          u32(0),
          u32(0),
          u64(count),
          u64(count),
          u64(central.length),
          u64(cdOffset),
          u32(0x07064b50),
          u32(0),
          u64(recordOffset),
          u32(1),
        );
      }
      tail.push(
        u32(0x06054b50),
        u16(0),
        u16(0),
        u16(zip64 ? 0xffff : count),
        u16(zip64 ? 0xffff : count),
        u32(zip64 ? MAX32 : central.length),
        u32(zip64 ? MAX32 : cdOffset),
        u16(comment.length),
        comment,
      );
      return Buffer.concat(tail);
    },
  };
}

/** A whole archive: optional prefix, the entries one after the other, the central directory. */
export function zipBuffer(entries: TestZipEntry[], options: TestZipOptions = {}): Buffer {
  const parts = zipParts(entries, options);
  const chunks: Buffer[] = [];
  let at = 0;
  if (options.prefix) {
    chunks.push(options.prefix);
    at += options.prefix.length;
  }
  const offsets: number[] = [];
  for (const local of parts.locals) {
    offsets.push(at);
    chunks.push(local);
    at += local.length;
  }
  chunks.push(parts.directory(offsets, at));
  return Buffer.concat(chunks);
}

/**
 * Deflate data of `head`, `repeat` copies of `block`, then `tail`, in little space: the block is
 * compressed once with a full flush (byte-aligned, no back-references across it) and the result
 * repeated. Returns the compressed bytes and the real inflated size and CRC (0 with
 * `crc: false`, for bombs never read to their end).
 */
export function repeatedDeflate(
  block: Buffer,
  repeat: number,
  options: { head?: string; tail?: string; crc?: boolean } = {},
): { compressed: Buffer; size: number; crc32: number } {
  const flushed = (data: Buffer) => zlib.deflateRawSync(data, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const head = Buffer.from(options.head ?? '');
  const tail = Buffer.from(options.tail ?? '');
  const body = flushed(block);
  const compressed = Buffer.concat([
    ...(head.length > 0 ? [flushed(head)] : []),
    ...Array.from({ length: repeat }, () => body),
    zlib.deflateRawSync(tail),
  ]);
  let crc = 0;
  if (options.crc !== false) {
    crc = zlib.crc32(head);
    for (let i = 0; i < repeat; i++) crc = zlib.crc32(block, crc);
    crc = zlib.crc32(tail, crc);
  }
  return { compressed, size: head.length + block.length * repeat + tail.length, crc32: crc };
}

/**
 * A zip bomb as a shared strings part: `<sst>` holding one short string repeated
 * (`repeat` × ~1 MiB inflated; 2,000 → ~2.1 GB from ~5 MB).
 */
export function sharedStringsBomb(repeat: number, options: { crc?: boolean } = {}) {
  return repeatedDeflate(Buffer.from('<si><t>Ana</t></si>'.repeat(55_189)), repeat, {
    head: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
    tail: '</sst>',
    crc: options.crc,
  });
}
