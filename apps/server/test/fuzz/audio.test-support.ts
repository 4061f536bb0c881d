/**
 * Audio files as encoders write them, and as they break, for the audio upload target:
 * - valid small MP3 (MPEG 1/2/2.5, CBR, Xing/Info/VBRI, ID3 tags), WAV (PCM, float, G.711,
 *   extensible) and Ogg (Vorbis, Opus) files, byte-mutated (bit flips, inserts, cuts, repeats);
 * - files generated with hostile header fields but otherwise well formed, so the parsers' logic
 *   is reached past the checks a random byte would fail: WAV fmt fields and chunk sizes, MP3
 *   header bytes and Xing/VBRI counts, Ogg pages with any granule, flags, serial or segment
 *   table, their CRCs correct.
 */
import fc from 'fast-check';
import { mp3File, mp3Frame, oggFile, oggPage, wavFile } from '../audio-builder.test-support.ts';
import { mutated } from './mutations.test-support.ts';

const validFiles: Buffer[] = [
  wavFile({ seconds: 0.3 }),
  wavFile({ seconds: 0.2, sampleRate: 44_100, channels: 2 }),
  wavFile({ formatTag: 3, bitsPerSample: 32, seconds: 0.1 }),
  wavFile({ formatTag: 7, bitsPerSample: 8, seconds: 0.5 }),
  wavFile({
    extensible: true,
    bitsPerSample: 24,
    channels: 2,
    seconds: 0.1,
    before: [{ id: 'LIST', body: Buffer.from('INFOabc') }],
  }),
  mp3File({ frames: 20 }),
  mp3File({ frames: 12, xing: { frames: 12 }, id3v2Bytes: 64, id3v1: true }),
  mp3File({ version: 2, sampleRate: 22_050, bitrate: 32, mono: true, frames: 15, vbri: { frames: 15 } }),
  mp3File({ version: 2.5, sampleRate: 8000, bitrate: 8, frames: 30, xing: { tag: 'Info', frames: 30 } }),
  oggFile({ codec: 'opus', samples: 48_000, packetsPerPage: 10 }),
  oggFile({ codec: 'vorbis', sampleRate: 22_050, channels: 2, samples: 22_050, packetsPerPage: 6 }),
];

const u32 = fc.oneof(
  fc.constantFrom(0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff),
  fc.integer({ min: 0, max: 0xffffffff }),
);
const u16 = fc.integer({ min: 0, max: 0xffff });

/** A WAV whose fmt fields and data size say anything. */
const hostileWav = fc
  .record({ tag: u16, channels: u16, rate: u32, align: u16, bits: u16, dataSize: u32, frames: fc.nat(400) })
  .map(({ tag, channels, rate, align, bits, dataSize, frames }) => {
    const bytes = wavFile({ frames, sampleRate: 8000 });
    bytes.writeUInt16LE(tag, 20);
    bytes.writeUInt16LE(channels, 22);
    bytes.writeUInt32LE(rate, 24);
    bytes.writeUInt16LE(align, 32);
    bytes.writeUInt16LE(bits, 34);
    bytes.writeUInt32LE(dataSize, 40);
    return bytes;
  });

/** An MP3 whose frames carry arbitrary header bytes here and there, and whose info frame claims any count. */
const hostileMp3 = fc
  .record({
    frames: fc.integer({ min: 0, max: 40 }),
    declared: u32,
    info: fc.constantFrom('xing', 'vbri', 'none'),
    headers: fc.array(fc.tuple(fc.nat(40), fc.integer({ min: 0, max: 0xffffff })), { maxLength: 6 }),
  })
  .map(({ frames, declared, info, headers }) => {
    const frame = mp3Frame().length;
    const bytes = mp3File({
      frames,
      ...(info === 'xing' ? { xing: { frames: declared } } : info === 'vbri' ? { vbri: { frames: declared } } : {}),
    });
    for (const [index, bits] of headers) {
      const at = index * frame;
      if (at + 4 <= bytes.length) {
        bytes[at + 1] = 0xe0 | ((bits >> 16) & 0x1f);
        bytes[at + 2] = (bits >> 8) & 0xff;
        bytes[at + 3] = bits & 0xff;
      }
    }
    return bytes;
  });

/** Ogg pages with correct CRCs whose fields say anything: the parser's own checks, not the CRC, decide. */
const hostileOgg = fc
  .record({
    head: fc.constantFrom('opus', 'vorbis', 'other'),
    channels: fc.nat(3),
    rate: u32,
    preSkip: u16,
    pages: fc.array(
      fc.record({
        granule: fc.oneof(
          fc.constantFrom(-1n, 0n, -2n, 2n ** 63n - 1n, 48_000n * 200n),
          fc.bigInt({ min: 0n, max: 48_000n * 600n }),
        ),
        serial: fc.constantFrom(1, 2),
        flags: fc.nat(7),
        packets: fc.array(
          fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b)),
          { maxLength: 4 },
        ),
      }),
      { maxLength: 6 },
    ),
    tail: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
  })
  .map(({ head, channels, rate, preSkip, pages, tail }) => {
    const id = Buffer.alloc(30);
    if (head === 'opus') {
      id.write('OpusHead', 0, 'latin1');
      id[8] = 1;
      id[9] = channels;
      id.writeUInt16LE(preSkip, 10);
    } else if (head === 'vorbis') {
      id[0] = 1;
      id.write('vorbis', 1, 'latin1');
      id[11] = channels;
      id.writeUInt32LE(rate, 12);
      id[29] = 1;
    }
    const body = pages.map((p, i) =>
      oggPage({ packets: p.packets, granule: p.granule, serial: p.serial, sequence: i + 1, flags: p.flags }),
    );
    return Buffer.concat([
      oggPage({ packets: [head === 'opus' ? id.subarray(0, 19) : id], granule: 0n, serial: 1, sequence: 0, flags: 2 }),
      ...body,
      tail,
    ]);
  });

export const audioBytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 6, arbitrary: mutated(fc.constantFrom(...validFiles)) },
  { weight: 2, arbitrary: hostileWav },
  { weight: 2, arbitrary: hostileMp3 },
  { weight: 2, arbitrary: hostileOgg },
);
