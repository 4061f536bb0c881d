import type { ByteSource } from './byte-source.ts';
import { type AudioInfo, ascii, invalid, notAllowed } from './types.ts';

/**
 * MPEG audio frame headers (ISO 11172-3 / 13818-3 and the MPEG 2.5 extension): 11 sync bits,
 * version (00 = 2.5, 10 = 2, 11 = 1), layer (01 = III, 10 = II, 11 = I), protection, bitrate
 * index, sampling-rate index, padding, then channel mode and flags. Only Layer III is an MP3.
 */
export type FrameHeader = {
  /** 1, 2 or 2.5. */
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  bitrate: number;
  sampleRate: number;
  mono: boolean;
  /** Bytes of the whole frame, header included. */
  length: number;
  /** PCM samples per channel the frame decodes to. */
  samples: number;
};

/** kbit/s by bitrate index (1..14); index 0 ("free format") and 15 are refused. */
const BITRATES = {
  v1l1: [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES = { 1: [44_100, 48_000, 32_000], 2: [22_050, 24_000, 16_000], 2.5: [11_025, 12_000, 8_000] };

/** The header of the frame that starts with these 4 bytes, or null if they are not one. */
export function parseFrameHeader(b: Buffer, at = 0): FrameHeader | null {
  if (at + 4 > b.length || b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return null;
  const versionBits = (b[at + 1]! >> 3) & 3;
  const layerBits = (b[at + 1]! >> 1) & 3;
  const bitrateIndex = b[at + 2]! >> 4;
  const rateIndex = (b[at + 2]! >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) {
    return null;
  }
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const table = version === 1 ? (layer === 1 ? 'v1l1' : layer === 2 ? 'v1l2' : 'v1l3') : layer === 1 ? 'v2l1' : 'v2l23';
  const bitrate = BITRATES[table][bitrateIndex - 1]! * 1000;
  const sampleRate = SAMPLE_RATES[version][rateIndex]!;
  const padding = (b[at + 2]! >> 1) & 1;
  const mono = b[at + 3]! >> 6 === 3;
  let length: number;
  let samples: number;
  if (layer === 1) {
    length = (Math.floor((12 * bitrate) / sampleRate) + padding) * 4;
    samples = 384;
  } else if (layer === 2 || version === 1) {
    length = Math.floor((144 * bitrate) / sampleRate) + padding;
    samples = 1152;
  } else {
    length = Math.floor((72 * bitrate) / sampleRate) + padding;
    samples = 576;
  }
  return { version, layer, bitrate, sampleRate, mono, length, samples };
}

const sameStream = (a: FrameHeader, b: FrameHeader) =>
  a.version === b.version && a.layer === b.layer && a.sampleRate === b.sampleRate;

/** The smallest Layer III frame of a stream like `h` (its lowest bitrate): bounds a header's frame count. */
function smallestFrame(h: FrameHeader): number {
  return Math.floor(((h.version === 1 ? 144 : 72) * (h.version === 1 ? 32_000 : 8_000)) / h.sampleRate);
}

/** ID3v2 tags are skipped (several may follow each other); an ID3v1 `TAG` or APE tag may end the file. */
async function skipId3v2(src: ByteSource): Promise<number> {
  let offset = 0;
  for (let tags = 0; tags < 16; tags++) {
    const h = await src.read(offset, 10);
    if (h.length < 10 || ascii(h, 0, 3) !== 'ID3') break;
    if (h[3] === 0xff || h[4] === 0xff || (h[6]! | h[7]! | h[8]! | h[9]!) & 0x80) throw invalid('broken ID3v2 tag');
    const size = (h[6]! << 21) | (h[7]! << 14) | (h[8]! << 7) | h[9]!;
    offset += 10 + size + (h[5]! & 0x10 ? 10 : 0);
  }
  return offset;
}

/** How far past the tags (and the zero padding some taggers leave) the first frame is looked for. */
const FIRST_FRAME_SEARCH = 64 * 1024;
/** Bytes read at once while walking frames, and while scanning for the next frame. */
const STEP = 4;
const SCAN = 32 * 1024;

type Walker = { src: ByteSource; end: number };

/** Past the longest MPEG audio frame (Layer II, MPEG 2.5, 160 kbit/s at 8 kHz: 2881 bytes) and a header. */
const LOOKAHEAD = 4096;

/**
 * A frame of the stream at `window[i]` whose next frame also is one (or which ends the audio
 * exactly), checked within the window alone: the window reaches LOOKAHEAD bytes past `i`.
 */
function chainedAt(window: Buffer, i: number, at: number, end: number, like?: FrameHeader): FrameHeader | null {
  const h = parseFrameHeader(window, i);
  if (!h || (like && !sameStream(h, like)) || at + h.length > end) return null;
  if (at + h.length === end) return h;
  const next = parseFrameHeader(window, i + h.length);
  return next && sameStream(h, next) ? h : null;
}

/**
 * The first frame (two in a row) starting in [from, until): 0xFF bytes are found a window at a
 * time (`indexOf`) and each candidate is checked in memory, so junk costs one pass over the
 * bytes and one read per window.
 */
async function nextFrame(
  w: Walker,
  from: number,
  until: number,
  like?: FrameHeader,
): Promise<{ at: number; header: FrameHeader } | null> {
  for (let base = from; base < until; base += SCAN) {
    const window = await w.src.read(base, Math.min(SCAN, until - base) + LOOKAHEAD);
    for (let i = window.indexOf(0xff); i >= 0 && i < SCAN && base + i < until; i = window.indexOf(0xff, i + 1)) {
      const header = chainedAt(window, i, base + i, w.end, like);
      if (header) return { at: base + i, header };
    }
  }
  return null;
}

/** The number of frames an Xing/Info or VBRI header in the first frame declares, if it has one. */
async function infoFrameCount(src: ByteSource, at: number, h: FrameHeader): Promise<number | null> {
  const frame = await src.read(at, Math.min(h.length, 200));
  // Xing/Info: after the side information (17 or 32 bytes in MPEG 1, 9 or 17 in MPEG 2/2.5).
  const xing = 4 + (h.version === 1 ? (h.mono ? 17 : 32) : h.mono ? 9 : 17);
  const tag = ascii(frame, xing, 4);
  if ((tag === 'Xing' || tag === 'Info') && frame.length >= xing + 12) {
    const flags = frame.readUInt32BE(xing + 4);
    return flags & 1 ? frame.readUInt32BE(xing + 8) : -1;
  }
  // Fraunhofer's VBRI: always 32 bytes after the header; the frame count is 14 bytes into it.
  if (ascii(frame, 36, 4) === 'VBRI' && frame.length >= 36 + 18) return frame.readUInt32BE(36 + 14);
  return null;
}

/**
 * An MP3: ID3v2 tags skipped, the first Layer III frame found (two frames in a row, so stray
 * sync bits are not taken for audio), then every frame walked to the end, resynchronising past
 * junk as decoders do. Duration = samples walked ÷ sample rate; an Xing/Info/VBRI header's frame
 * count is read too, and wins when it is larger (a truncated VBR file reports what its encoder
 * wrote) but only when the file could hold that many frames. The walk is linear in the file's
 * size: each byte is looked at a bounded number of times.
 */
export async function probeMp3(src: ByteSource): Promise<AudioInfo> {
  const tagsEnd = await skipId3v2(src);
  const w: Walker = { src, end: src.size };
  // An ID3v1 tag ("TAG", the last 128 bytes) and an APEv2 footer are not frames.
  const tail = await src.read(Math.max(0, src.size - 128), 128);
  if (tail.length === 128 && ascii(tail, 0, 3) === 'TAG') w.end -= 128;
  const ape = await src.read(Math.max(0, w.end - 32), 32);
  if (ape.length === 32 && ascii(ape, 0, 8) === 'APETAGEX') {
    const apeSize = ape.readUInt32LE(12);
    if (apeSize <= w.end) w.end -= apeSize + (ape.readUInt32LE(20) & 0x80000000 ? 32 : 0);
  }
  if (w.end <= tagsEnd) throw invalid('no audio after the tags');

  const found = await nextFrame(w, tagsEnd, Math.min(w.end, tagsEnd + FIRST_FRAME_SEARCH));
  if (!found) {
    const start = await src.read(tagsEnd, 4);
    if (start[0] === 0xff && ((start[1] ?? 0) & 0xf6) === 0xf0) throw notAllowed('AAC (ADTS), not MP3');
    throw invalid('no MPEG audio frames');
  }
  const { at, header: first } = found;
  if (first.layer !== 3) throw notAllowed(`MPEG Layer ${first.layer === 1 ? 'I' : 'II'}, not Layer III`);

  const declared = await infoFrameCount(src, at, first);
  let frames = 0;
  let samples = 0;
  // The Xing/Info/VBRI frame is silence: it is not counted as audio.
  let p = declared === null ? at : at + first.length;
  while (p < w.end) {
    const h = parseFrameHeader(await src.read(p, STEP));
    if (h && sameStream(h, first) && p + h.length <= w.end) {
      frames++;
      samples += h.samples;
      p += h.length;
      continue;
    }
    // Junk between frames: look for the next frame, two in a row, as a decoder resynchronises.
    const next = await nextFrame(w, p + 1, w.end, first);
    if (!next) break;
    p = next.at;
  }
  if (frames === 0) throw invalid('no audio frames after the header');

  let total = samples;
  if (declared !== null && declared > 0 && declared * smallestFrame(first) <= src.size - at) {
    total = Math.max(total, declared * first.samples);
  }
  return {
    format: 'mp3',
    codec: 'mp3',
    durationSeconds: total / first.sampleRate,
    sampleRate: first.sampleRate,
    channels: first.mono ? 1 : 2,
  };
}
