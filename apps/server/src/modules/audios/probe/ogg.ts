import type { ByteSource } from './byte-source.ts';
import { type AudioInfo, ascii, invalid, notAllowed } from './types.ts';

/** CRC-32 of Ogg pages (RFC 3533): polynomial 0x04C11DB7, not reflected, initial value 0, no final XOR. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ bytes[i]!) & 0xff]!) >>> 0;
  return crc;
}

/** Header (27 bytes) + segment table (≤ 255) + body (≤ 255 × 255): no page is larger. */
export const MAX_PAGE_BYTES = 27 + 255 + 255 * 255;

export type OggPage = {
  flags: number;
  /** -1 when no packet ends on this page. */
  granule: bigint;
  serial: number;
  /** The whole page. */
  bytes: Buffer;
  segments: number[];
  headerLength: number;
};

/** The page at `offset`, if a whole, well-formed page with a matching CRC starts there. */
export async function readPage(src: ByteSource, offset: number): Promise<OggPage | null> {
  const head = await src.read(offset, 27);
  if (head.length < 27 || ascii(head, 0, 4) !== 'OggS' || head[4] !== 0) return null;
  const count = head[26]!;
  const table = await src.read(offset + 27, count);
  if (table.length < count) return null;
  const segments = [...table];
  const length = 27 + count + segments.reduce((a, b) => a + b, 0);
  const bytes = Buffer.from(await src.read(offset, length));
  if (bytes.length < length) return null;
  const stored = bytes.readUInt32LE(22);
  bytes.writeUInt32LE(0, 22);
  const crc = oggCrc(bytes);
  bytes.writeUInt32LE(stored, 22);
  if (crc !== stored) return null;
  return {
    flags: bytes[5]!,
    granule: bytes.readBigInt64LE(6),
    serial: bytes.readUInt32LE(14),
    bytes,
    segments,
    headerLength: 27 + count,
  };
}

/** How much the search for the last page may look at: a hostile file full of "OggS" stays cheap. */
const LAST_PAGE_CANDIDATES = 64;
const LAST_PAGE_CRC_BYTES = 4 * 1024 * 1024;

/**
 * The last page of the stream `serial` with a granule position, found from the end of the file:
 * "OggS" searched backwards a window at a time, each candidate checked (whole page, CRC, serial).
 */
async function lastGranule(src: ByteSource, serial: number, after: number): Promise<bigint | null> {
  let candidates = 0;
  let checked = 0;
  let end = src.size;
  while (end > after) {
    const start = Math.max(after, end - MAX_PAGE_BYTES);
    const window = await src.read(start, end - start);
    for (let i = window.lastIndexOf('OggS'); i >= 0; i = i === 0 ? -1 : window.lastIndexOf('OggS', i - 1)) {
      if (++candidates > LAST_PAGE_CANDIDATES || checked > LAST_PAGE_CRC_BYTES) return null;
      const page = await readPage(src, start + i);
      if (!page) continue;
      checked += page.bytes.length;
      if (page.serial === serial && page.granule !== -1n) return page.granule;
    }
    // A page starting before this window may hold the window's first bytes: overlap by a header.
    end = start === after ? after : start + 3;
  }
  return null;
}

/** The first packet of a page that holds it whole (an identification header is alone on its page). */
function firstPacket(page: OggPage): Buffer | null {
  let length = 0;
  for (const lacing of page.segments) {
    length += lacing;
    if (lacing < 255) return page.bytes.subarray(page.headerLength, page.headerLength + length);
  }
  return null;
}

/**
 * An Ogg file: the first page (beginning of stream, CRC checked) holds the identification header,
 * which says Vorbis (channels, sample rate) or Opus (channels, pre-skip; Opus always decodes at
 * 48 kHz); the last page of that stream gives the granule position, the number of samples.
 * Vorbis: duration = granule ÷ rate. Opus: (granule − pre-skip) ÷ 48 000 (RFC 7845).
 */
export async function probeOgg(src: ByteSource): Promise<AudioInfo> {
  const page = await readPage(src, 0);
  if (!page) throw invalid('the first Ogg page is broken');
  if (!(page.flags & 0x02)) throw invalid('the first Ogg page does not begin a stream');
  const packet = firstPacket(page);
  if (!packet) throw invalid('no identification header');

  let codec: 'vorbis' | 'opus';
  let channels: number;
  let rate: number;
  let preSkip = 0;
  if (packet.length >= 30 && packet[0] === 1 && ascii(packet, 1, 6) === 'vorbis') {
    codec = 'vorbis';
    if (packet.readUInt32LE(7) !== 0) throw invalid('unknown Vorbis version');
    channels = packet[11]!;
    rate = packet.readUInt32LE(12);
    if ((packet[29]! & 1) !== 1) throw invalid('Vorbis identification header without its framing bit');
  } else if (packet.length >= 19 && ascii(packet, 0, 8) === 'OpusHead') {
    codec = 'opus';
    if (packet[8]! >> 4 !== 0) throw notAllowed(`Opus encapsulation version ${packet[8]}`);
    channels = packet[9]!;
    preSkip = packet.readUInt16LE(10);
    rate = 48_000;
  } else {
    const kind = ascii(packet, 1, 4) === 'FLAC' ? 'FLAC' : ascii(packet, 0, 5) === 'Speex' ? 'Speex' : 'unknown';
    throw notAllowed(`Ogg with ${kind} content`);
  }
  if (channels < 1) throw invalid('no channels');
  if (rate < 1000 || rate > 384_000) throw invalid(`sample rate ${rate} Hz`);

  const granule = await lastGranule(src, page.serial, page.bytes.length);
  if (granule === null || granule <= 0n) throw invalid('no audio pages');
  // Beyond 2^53 samples the number is absurd anyway; it stays "far too long".
  const samples = Number(granule) - preSkip;
  if (samples <= 0) throw invalid('no samples after the pre-skip');
  return { format: 'ogg', codec, durationSeconds: samples / rate, sampleRate: rate, channels };
}
