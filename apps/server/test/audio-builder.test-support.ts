/**
 * Audio files written byte by byte for the tests (and the fuzz suite, and e2e), instead of
 * committed binaries: every length, rate and header field is the test's to choose, so a test
 * knows the exact duration its file must read as.
 * - `wavFile`: a RIFF/WAVE header and PCM (a sine tone, so a browser plays something audible).
 * - `mp3File`: MPEG Layer III frames whose side information is all zero (each decodes to silence),
 *   optionally an Xing/Info or VBRI header frame, ID3v2/ID3v1 tags.
 * - `oggFile`: Ogg pages with correct CRCs carrying a Vorbis or Opus stream's headers and packets
 *   (Opus packets of a lone TOC byte: real decoders play them as silence).
 */
import { oggCrc } from '../src/modules/audios/probe/ogg.ts';

export type WavOptions = {
  sampleRate?: number;
  channels?: number;
  bitsPerSample?: number;
  /** 1 PCM, 3 float, 6 A-law, 7 µ-law, anything else to test refusals. */
  formatTag?: number;
  /** Wrap the format in WAVE_FORMAT_EXTENSIBLE. */
  extensible?: boolean;
  seconds?: number;
  /** Sample frames, instead of seconds. */
  frames?: number;
  /** Chunks written before `fmt ` (LIST, bext…). */
  before?: { id: string; body: Buffer }[];
  /** Overrides the data chunk's declared size (0xFFFFFFFF as streaming writers leave it). */
  declaredDataSize?: number;
  toneHz?: number;
};

function chunk(id: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

export function wavFile(options: WavOptions = {}): Buffer {
  const sampleRate = options.sampleRate ?? 8000;
  const channels = options.channels ?? 1;
  const bits = options.bitsPerSample ?? 16;
  const tag = options.formatTag ?? 1;
  const frames = options.frames ?? Math.round((options.seconds ?? 1) * sampleRate);
  const blockAlign = (channels * bits) / 8;
  const fmt = Buffer.alloc(options.extensible ? 40 : 16);
  fmt.writeUInt16LE(options.extensible ? 0xfffe : tag, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(sampleRate, 4);
  fmt.writeUInt32LE(sampleRate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(bits, 14);
  if (options.extensible) {
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(bits, 18);
    fmt.writeUInt32LE(channels === 1 ? 4 : 3, 20);
    // KSDATAFORMAT_SUBTYPE_*: the tag, then 00000000-0010-8000-00AA00389B71.
    Buffer.from([tag & 0xff, tag >> 8, 0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71]).copy(fmt, 24);
  }
  const data = Buffer.alloc(frames * blockAlign);
  if (tag === 1 && bits === 16) {
    const hz = options.toneHz ?? 440;
    for (let i = 0; i < frames; i++) {
      const v = Math.round(Math.sin((2 * Math.PI * hz * i) / sampleRate) * 8000);
      for (let c = 0; c < channels; c++) data.writeInt16LE(v, (i * channels + c) * 2);
    }
  }
  const dataChunk = chunk('data', data);
  if (options.declaredDataSize !== undefined) dataChunk.writeUInt32LE(options.declaredDataSize, 4);
  const body = Buffer.concat([
    Buffer.from('WAVE', 'latin1'),
    ...(options.before ?? []).map((c) => chunk(c.id, c.body)),
    chunk('fmt ', fmt),
    dataChunk,
  ]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

export type Mp3Options = {
  /** MPEG version: 1 (32/44.1/48 kHz), 2 (16/22.05/24 kHz) or 2.5 (8/11.025/12 kHz). */
  version?: 1 | 2 | 2.5;
  sampleRate?: number;
  /** kbit/s, from the version's Layer III table. */
  bitrate?: number;
  mono?: boolean;
  /** Audio frames (the info frame, if any, comes in addition). */
  frames: number;
  /** A first frame with an Xing (VBR) or Info (CBR) header declaring this many frames. */
  xing?: { tag?: 'Xing' | 'Info'; frames: number };
  /** A first frame with a Fraunhofer VBRI header declaring this many frames. */
  vbri?: { frames: number };
  /** Bytes of an ID3v2 tag at the start (0 = none). */
  id3v2Bytes?: number;
  id3v1?: boolean;
  /** The layer bits' layer (2 and 1 for the refusal tests). */
  layer?: 1 | 2 | 3;
};

const RATE_INDEX: Record<number, number> = {
  44100: 0,
  48000: 1,
  32000: 2,
  22050: 0,
  24000: 1,
  16000: 2,
  11025: 0,
  12000: 1,
  8000: 2,
};
const L3_V1 = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const L3_V2 = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const L2_V1 = [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384];
const L1_V1 = [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448];

/** One frame: the header, then zeros (all-zero side information decodes to silence). */
export function mp3Frame(options: Omit<Mp3Options, 'frames'> = {}): Buffer {
  const version = options.version ?? 1;
  const layer = options.layer ?? 3;
  const sampleRate = options.sampleRate ?? (version === 1 ? 32_000 : version === 2 ? 16_000 : 8_000);
  const bitrate = options.bitrate ?? (version === 1 ? 128 : 64);
  const table = version === 1 ? (layer === 3 ? L3_V1 : layer === 2 ? L2_V1 : L1_V1) : L3_V2;
  const bitrateIndex = table.indexOf(bitrate) + 1;
  if (bitrateIndex === 0) throw new Error(`no ${bitrate} kbit/s in that table`);
  const length =
    layer === 1
      ? Math.floor((12 * bitrate * 1000) / sampleRate) * 4
      : Math.floor(((version === 1 || layer === 2 ? 144 : 72) * bitrate * 1000) / sampleRate);
  const frame = Buffer.alloc(length);
  const versionBits = version === 1 ? 3 : version === 2 ? 2 : 0;
  frame[0] = 0xff;
  frame[1] = 0xe0 | (versionBits << 3) | ((4 - layer) << 1) | 1; // no CRC
  frame[2] = (bitrateIndex << 4) | (RATE_INDEX[sampleRate]! << 2);
  frame[3] = options.mono ? 0xc0 : 0x00;
  return frame;
}

function id3v2(bytes: number): Buffer {
  const tag = Buffer.alloc(10 + bytes);
  tag.write('ID3', 0, 'latin1');
  tag[3] = 4;
  tag[6] = (bytes >> 21) & 0x7f;
  tag[7] = (bytes >> 14) & 0x7f;
  tag[8] = (bytes >> 7) & 0x7f;
  tag[9] = bytes & 0x7f;
  // A TIT2 frame so the tag is not all zeros.
  if (bytes >= 20) tag.write('TIT2\x00\x00\x00\x06\x00\x00\x03Ecoa', 10, 'latin1');
  return tag;
}

export function mp3File(options: Mp3Options): Buffer {
  const frame = mp3Frame(options);
  const parts: Buffer[] = [];
  if (options.id3v2Bytes) parts.push(id3v2(options.id3v2Bytes));
  if (options.xing) {
    const info = Buffer.from(frame);
    const version = options.version ?? 1;
    const at = 4 + (version === 1 ? (options.mono ? 17 : 32) : options.mono ? 9 : 17);
    info.write(options.xing.tag ?? 'Xing', at, 'latin1');
    info.writeUInt32BE(0x0003, at + 4); // frames and bytes
    info.writeUInt32BE(options.xing.frames, at + 8);
    info.writeUInt32BE(Math.min(0xffffffff, frame.length * (options.xing.frames + 1)), at + 12);
    parts.push(info);
  } else if (options.vbri) {
    const info = Buffer.from(frame);
    info.write('VBRI', 36, 'latin1');
    info.writeUInt16BE(1, 40);
    info.writeUInt32BE(Math.min(0xffffffff, frame.length * (options.vbri.frames + 1)), 46);
    info.writeUInt32BE(options.vbri.frames, 50);
    parts.push(info);
  }
  for (let i = 0; i < options.frames; i++) parts.push(frame);
  if (options.id3v1) {
    const tag = Buffer.alloc(128);
    tag.write('TAGEcoa', 0, 'latin1');
    parts.push(tag);
  }
  return Buffer.concat(parts);
}

/** Seconds of `frames` Layer III frames at `sampleRate` (1152 samples a frame in MPEG 1, 576 after). */
export const mp3Seconds = (frames: number, sampleRate: number, version: 1 | 2 | 2.5 = 1) =>
  (frames * (version === 1 ? 1152 : 576)) / sampleRate;

export type OggOptions = {
  codec: 'vorbis' | 'opus';
  /** Vorbis: the stream's rate. Opus: the input rate it records (it always decodes at 48 kHz). */
  sampleRate?: number;
  channels?: number;
  /** Samples of sound (per channel, at the decoding rate), pre-skip excluded. */
  samples: number;
  /** Opus only, samples at 48 kHz. */
  preSkip?: number;
  serial?: number;
  /** Audio packets per page. */
  packetsPerPage?: number;
};

/** One page: header, segment table (packets laced), body; CRC computed over the whole page. */
export function oggPage(options: {
  packets: Buffer[];
  granule: bigint;
  serial: number;
  sequence: number;
  flags?: number;
}): Buffer {
  const lacing: number[] = [];
  for (const packet of options.packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  if (lacing.length > 255) throw new Error('too many segments for one page');
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'latin1');
  header[5] = options.flags ?? 0;
  header.writeBigInt64LE(options.granule, 6);
  header.writeUInt32LE(options.serial, 14);
  header.writeUInt32LE(options.sequence, 18);
  header[26] = lacing.length;
  const page = Buffer.concat([header, Buffer.from(lacing), ...options.packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

function vorbisId(channels: number, rate: number): Buffer {
  const b = Buffer.alloc(30);
  b[0] = 1;
  b.write('vorbis', 1, 'latin1');
  b.writeUInt32LE(0, 7);
  b[11] = channels;
  b.writeUInt32LE(rate, 12);
  b.writeInt32LE(0, 16);
  b.writeInt32LE(64_000, 20);
  b.writeInt32LE(0, 24);
  b[28] = 0xb8; // blocksizes 256 / 2048
  b[29] = 1;
  return b;
}

function vorbisComment(): Buffer {
  const vendor = Buffer.from('Ecoa test', 'latin1');
  const b = Buffer.alloc(7 + 4 + vendor.length + 4 + 1);
  b[0] = 3;
  b.write('vorbis', 1, 'latin1');
  b.writeUInt32LE(vendor.length, 7);
  vendor.copy(b, 11);
  b.writeUInt32LE(0, 11 + vendor.length);
  b[b.length - 1] = 1;
  return b;
}

function opusHead(channels: number, preSkip: number, rate: number): Buffer {
  const b = Buffer.alloc(19);
  b.write('OpusHead', 0, 'latin1');
  b[8] = 1;
  b[9] = channels;
  b.writeUInt16LE(preSkip, 10);
  b.writeUInt32LE(rate, 12);
  b.writeInt16LE(0, 16);
  b[18] = 0;
  return b;
}

function opusTags(): Buffer {
  const vendor = Buffer.from('Ecoa test', 'latin1');
  const b = Buffer.alloc(8 + 4 + vendor.length + 4);
  b.write('OpusTags', 0, 'latin1');
  b.writeUInt32LE(vendor.length, 8);
  vendor.copy(b, 12);
  return b;
}

export function oggFile(options: OggOptions): Buffer {
  const serial = options.serial ?? 0x0eca0001;
  const channels = options.channels ?? 1;
  const pages: Buffer[] = [];
  let sequence = 0;
  const page = (packets: Buffer[], granule: bigint, flags = 0) =>
    pages.push(oggPage({ packets, granule, serial, sequence: sequence++, flags }));
  const perPage = options.packetsPerPage ?? 50;
  if (options.codec === 'opus') {
    const preSkip = options.preSkip ?? 312;
    page([opusHead(channels, preSkip, options.sampleRate ?? 48_000)], 0n, 0x02);
    page([opusTags()], 0n);
    // 20 ms packets (960 samples): a TOC byte alone, CELT fullband 20 ms, one frame of 0 bytes.
    const total = preSkip + options.samples;
    const packets = Math.ceil(total / 960);
    for (let i = 0; i < packets; i += perPage) {
      const n = Math.min(perPage, packets - i);
      const last = i + n >= packets;
      page(
        Array.from({ length: n }, () => Buffer.from([0xf8 | (channels > 1 ? 0x04 : 0)])),
        last ? BigInt(total) : BigInt((i + n) * 960),
        last ? 0x04 : 0,
      );
    }
  } else {
    const rate = options.sampleRate ?? 44_100;
    page([vorbisId(channels, rate)], 0n, 0x02);
    // The comment and setup headers (the setup is a stand-in: the parser does not read it).
    page([vorbisComment(), Buffer.concat([Buffer.from([5]), Buffer.from('vorbis', 'latin1'), Buffer.alloc(40)])], 0n);
    const packets = Math.ceil(options.samples / 1024);
    for (let i = 0; i < packets; i += perPage) {
      const n = Math.min(perPage, packets - i);
      const last = i + n >= packets;
      page(
        Array.from({ length: n }, () => Buffer.alloc(20, 0x55)),
        last ? BigInt(options.samples) : BigInt((i + n) * 1024),
        last ? 0x04 : 0,
      );
    }
  }
  return Buffer.concat(pages);
}
