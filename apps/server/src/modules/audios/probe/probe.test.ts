import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  mp3File,
  mp3Frame,
  mp3Seconds,
  oggFile,
  oggPage,
  wavFile,
} from '../../../../test/audio-builder.test-support.ts';
import { tempDir } from '../../../../test/server.test-support.ts';
import { type AudioInfo, AudioProbeError, bufferSource, openFileSource, probeAudio } from './index.ts';

const probe = (bytes: Buffer) => probeAudio(bufferSource(bytes));

async function refusal(bytes: Buffer): Promise<string> {
  try {
    const info = await probe(bytes);
    return `accepted ${JSON.stringify(info)}`;
  } catch (err) {
    if (err instanceof AudioProbeError) return err.code;
    throw err;
  }
}

describe('WAV', () => {
  it('reads the duration from the fmt and data chunks, exactly', async () => {
    expect(await probe(wavFile({ sampleRate: 8000, channels: 1, bitsPerSample: 16, seconds: 2.5 }))).toEqual<AudioInfo>(
      { format: 'wav', codec: 'pcm', durationSeconds: 2.5, sampleRate: 8000, channels: 1 },
    );
    const odd = await probe(wavFile({ sampleRate: 44_100, channels: 2, frames: 44_100 * 7 + 1 }));
    expect(odd.durationSeconds).toBe((44_100 * 7 + 1) / 44_100);
    expect(odd.channels).toBe(2);
  });

  it('takes 8/24/32-bit PCM, float, G.711 and WAVE_FORMAT_EXTENSIBLE', async () => {
    const cases: [Parameters<typeof wavFile>[0], string][] = [
      [{ bitsPerSample: 8, seconds: 1 }, 'pcm'],
      [{ bitsPerSample: 24, channels: 2, seconds: 1 }, 'pcm'],
      [{ bitsPerSample: 32, seconds: 1 }, 'pcm'],
      [{ formatTag: 3, bitsPerSample: 32, seconds: 1 }, 'float'],
      [{ formatTag: 6, bitsPerSample: 8, seconds: 1 }, 'alaw'],
      [{ formatTag: 7, bitsPerSample: 8, seconds: 1 }, 'mulaw'],
      [{ extensible: true, bitsPerSample: 24, channels: 2, sampleRate: 48_000, seconds: 1 }, 'pcm'],
    ];
    for (const [options, codec] of cases) {
      const info = await probe(wavFile(options));
      expect(info, JSON.stringify(options)).toMatchObject({ codec, durationSeconds: 1 });
    }
  });

  it('walks past other chunks (odd sizes padded) and counts what a streaming writer left open', async () => {
    const before = [
      { id: 'LIST', body: Buffer.from('INFOISFT\x05\x00\x00\x00Ecoa\x00', 'latin1') },
      { id: 'bext', body: Buffer.alloc(3) },
    ];
    expect((await probe(wavFile({ before, seconds: 1.25 }))).durationSeconds).toBe(1.25);
    const open = wavFile({ seconds: 2, declaredDataSize: 0xffffffff });
    expect((await probe(open)).durationSeconds).toBe(2);
    // Truncated in the middle of the data: what is there.
    const cut = wavFile({ seconds: 2 });
    expect((await probe(cut.subarray(0, cut.length - 8000))).durationSeconds).toBe(1.5);
  });

  it('refuses other codecs as a type, and broken files as invalid', async () => {
    expect(await refusal(wavFile({ formatTag: 0x11, bitsPerSample: 4 }))).toBe('AUDIO_TYPE_NOT_ALLOWED'); // IMA ADPCM
    expect(await refusal(wavFile({ formatTag: 0x55, bitsPerSample: 16 }))).toBe('AUDIO_TYPE_NOT_ALLOWED'); // MP3 in WAV
    expect(await refusal(wavFile({ bitsPerSample: 12 }))).toBe('AUDIO_TYPE_NOT_ALLOWED');
    expect(await refusal(wavFile({ frames: 0 }))).toBe('AUDIO_INVALID');
    expect(await refusal(wavFile({ sampleRate: 10 }))).toBe('AUDIO_INVALID');
    const good = wavFile({ seconds: 1 });
    expect(await refusal(good.subarray(0, 30))).toBe('AUDIO_INVALID'); // cut inside fmt
    expect(await refusal(good.subarray(0, 36))).toBe('AUDIO_INVALID'); // no data chunk
    const dataFirst = Buffer.from(good);
    dataFirst.write('junk', 12, 'latin1'); // the fmt chunk renamed: data comes without a format
    expect(await refusal(dataFirst)).toBe('AUDIO_INVALID');
  });
});

describe('MP3', () => {
  it('walks CBR frames of MPEG 1, 2 and 2.5 exactly', async () => {
    expect(await probe(mp3File({ frames: 100 }))).toEqual<AudioInfo>({
      format: 'mp3',
      codec: 'mp3',
      durationSeconds: 3.6, // 100 × 1152 / 32 000
      sampleRate: 32_000,
      channels: 2,
    });
    const v2 = await probe(mp3File({ version: 2, sampleRate: 16_000, bitrate: 64, mono: true, frames: 250 }));
    expect(v2).toMatchObject({ durationSeconds: 9, channels: 1 }); // 250 × 576 / 16 000
    const v25 = await probe(mp3File({ version: 2.5, sampleRate: 8000, bitrate: 16, frames: 125 }));
    expect(v25.durationSeconds).toBe(9); // 125 × 576 / 8000
    const cd = await probe(mp3File({ sampleRate: 44_100, bitrate: 128, frames: 1000 }));
    expect(cd.durationSeconds).toBe(mp3Seconds(1000, 44_100));
  });

  it('skips ID3v2 and ID3v1 tags', async () => {
    const tagged = mp3File({ frames: 50, id3v2Bytes: 4096, id3v1: true });
    expect((await probe(tagged)).durationSeconds).toBe(1.8);
  });

  it('reads Xing, Info and VBRI headers (not counting their own frame)', async () => {
    expect((await probe(mp3File({ frames: 100, xing: { frames: 100 } }))).durationSeconds).toBe(3.6);
    expect((await probe(mp3File({ frames: 100, xing: { tag: 'Info', frames: 100 } }))).durationSeconds).toBe(3.6);
    expect((await probe(mp3File({ frames: 100, vbri: { frames: 100 } }))).durationSeconds).toBe(3.6);
    const mono = await probe(
      mp3File({ version: 2, sampleRate: 24_000, bitrate: 32, mono: true, frames: 100, xing: { frames: 100 } }),
    );
    expect(mono.durationSeconds).toBe(2.4);
  });

  it('a truncated VBR file reports what its header declares; a header that cannot be true is ignored', async () => {
    const whole = mp3File({ frames: 100, xing: { frames: 100 } });
    const frame = mp3Frame().length;
    const truncated = whole.subarray(0, whole.length - 40 * frame);
    expect((await probe(truncated)).durationSeconds).toBe(3.6);
    // 10 million frames cannot fit in 58 KB: the frames walked count.
    expect((await probe(mp3File({ frames: 100, xing: { frames: 10_000_000 } }))).durationSeconds).toBe(3.6);
    // A header that claims fewer frames than the file holds does not shorten it.
    expect((await probe(mp3File({ frames: 100, xing: { frames: 3 } }))).durationSeconds).toBe(3.6);
  });

  it('resynchronises past junk between frames, as decoders do', async () => {
    const a = mp3File({ frames: 40 });
    const b = mp3File({ frames: 60 });
    const junk = crypto.randomBytes(3000).map((x) => (x === 0xff ? 0 : x));
    expect((await probe(Buffer.concat([a, junk, b]))).durationSeconds).toBe(3.6);
  });

  it('refuses other MPEG layers and AAC as a type; frames without audio as invalid', async () => {
    expect(await refusal(mp3File({ frames: 20, layer: 2, bitrate: 192 }))).toBe('AUDIO_TYPE_NOT_ALLOWED');
    expect(await refusal(mp3File({ frames: 20, layer: 1, bitrate: 192 }))).toBe('AUDIO_TYPE_NOT_ALLOWED');
    const adts = Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc, ...crypto.randomBytes(200)]);
    expect(await refusal(adts)).toBe('AUDIO_TYPE_NOT_ALLOWED');
    expect(await refusal(Buffer.concat([mp3File({ frames: 0, id3v2Bytes: 100 }), Buffer.alloc(500, 7)]))).toBe(
      'AUDIO_INVALID',
    );
    expect(await refusal(mp3File({ frames: 0, xing: { frames: 100 } }))).toBe('AUDIO_INVALID');
    expect(await refusal(Buffer.from([0xff, 0xfb, 0x90, 0x00, 1, 2, 3]))).toBe('AUDIO_INVALID');
  });
});

describe('Ogg', () => {
  it('Vorbis: the last granule position over the identification header’s rate', async () => {
    expect(
      await probe(oggFile({ codec: 'vorbis', sampleRate: 44_100, channels: 2, samples: 44_100 * 5 })),
    ).toEqual<AudioInfo>({
      format: 'ogg',
      codec: 'vorbis',
      durationSeconds: 5,
      sampleRate: 44_100,
      channels: 2,
    });
    const odd = await probe(oggFile({ codec: 'vorbis', sampleRate: 22_050, samples: 22_050 * 3 + 17 }));
    expect(odd.durationSeconds).toBe((22_050 * 3 + 17) / 22_050);
  });

  it('Opus: 48 kHz granules, the pre-skip subtracted', async () => {
    const info = await probe(oggFile({ codec: 'opus', sampleRate: 16_000, samples: 48_000 * 4, preSkip: 312 }));
    expect(info).toEqual<AudioInfo>({
      format: 'ogg',
      codec: 'opus',
      durationSeconds: 4,
      sampleRate: 48_000,
      channels: 1,
    });
  });

  it('checks CRCs: a broken first page is invalid, a broken last page falls back to the one before', async () => {
    const file = oggFile({ codec: 'vorbis', sampleRate: 8000, samples: 8192 * 3, packetsPerPage: 8 });
    const badFirst = Buffer.from(file);
    badFirst[40] = badFirst[40]! ^ 1;
    expect(await refusal(badFirst)).toBe('AUDIO_INVALID');
    const badLast = Buffer.from(file);
    badLast[badLast.length - 3] = badLast[badLast.length - 3]! ^ 1;
    expect((await probe(badLast)).durationSeconds).toBe((8192 * 2) / 8000);
  });

  it('refuses other Ogg content as a type, and a stream without audio as invalid', async () => {
    const flacId = Buffer.concat([Buffer.from([0x7f]), Buffer.from('FLAC', 'latin1'), Buffer.alloc(40)]);
    const flac = oggPage({ packets: [flacId], granule: 0n, serial: 1, sequence: 0, flags: 2 });
    expect(await refusal(flac)).toBe('AUDIO_TYPE_NOT_ALLOWED');
    const headersOnly = oggFile({ codec: 'opus', samples: 0, preSkip: 0 });
    expect(await refusal(headersOnly)).toBe('AUDIO_INVALID');
    const notBos = Buffer.from(oggFile({ codec: 'opus', samples: 48_000 }));
    notBos[5] = 0;
    notBos.writeUInt32LE(0, 22);
    const { oggCrc } = await import('./ogg.ts');
    notBos.writeUInt32LE(oggCrc(notBos.subarray(0, 27 + 1 + 19)), 22);
    expect(await refusal(notBos)).toBe('AUDIO_INVALID');
  });
});

describe('by content', () => {
  it('refuses what is not MP3, WAV or Ogg, naming it', async () => {
    const cases: [Buffer, string][] = [
      [Buffer.from('fLaC\x00\x00\x00\x22', 'latin1'), 'FLAC'],
      [Buffer.from('\x00\x00\x00\x20ftypM4A isom', 'latin1'), 'MP4/M4A'],
      [Buffer.from('#!AMR\n', 'latin1'), 'AMR'],
      [Buffer.from('RIFF\x10\x00\x00\x00AVI LIST', 'latin1'), 'RIFF (not WAVE)'],
      [Buffer.from('%PDF-1.7\n', 'latin1'), 'unknown content'],
    ];
    for (const [bytes, reason] of cases) {
      const err = await probe(bytes).catch((e: AudioProbeError) => e);
      expect(err).toBeInstanceOf(AudioProbeError);
      expect((err as AudioProbeError).code).toBe('AUDIO_TYPE_NOT_ALLOWED');
      expect((err as AudioProbeError).reason).toBe(reason);
    }
    expect(await refusal(Buffer.alloc(0))).toBe('AUDIO_INVALID');
  });

  it('reads files through a 64 KB window, the same as from memory', async () => {
    const dir = tempDir();
    const files = {
      mp3: mp3File({ frames: 2000, xing: { frames: 2000 }, id3v2Bytes: 70_000, id3v1: true }),
      wav: wavFile({ seconds: 30, sampleRate: 16_000 }),
      ogg: oggFile({ codec: 'opus', samples: 48_000 * 60 }),
    };
    for (const [name, bytes] of Object.entries(files)) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      const src = await openFileSource(file);
      try {
        expect(await probeAudio(src)).toEqual(await probe(bytes));
      } finally {
        await src.close();
      }
    }
  });

  // Linear, not quadratic: 10 MB of each hostile pattern costs about ten times 1 MB of it (a
  // quadratic reader, a hundred times). A ratio of two runs side by side holds on a busy machine,
  // where a bound in milliseconds does not.
  it('stays linear on hostile 10 MB files', async () => {
    const MB = 1024 * 1024;
    const hostile = [
      // Looks like MP3 at the start, then sync-like bytes everywhere that never chain.
      (size: number) => Buffer.concat([mp3File({ frames: 2 }), Buffer.alloc(size, Buffer.from([0xff, 0xfb, 0x90]))]),
      // A valid first Ogg page, then "OggS" over and over.
      (size: number) =>
        Buffer.concat([
          oggFile({ codec: 'opus', samples: 960 }).subarray(0, 47),
          Buffer.alloc(size, Buffer.from('OggS\x00\x00')),
        ]),
      // A WAV whose chunks are all empty LIST chunks.
      (size: number) =>
        Buffer.concat([
          Buffer.from('RIFF\xff\xff\xff\xffWAVE', 'latin1'),
          Buffer.alloc(size, Buffer.from('LIST\x00\x00\x00\x00')),
        ]),
    ];
    const timed = async (bytes: Buffer) => {
      const started = performance.now();
      const outcome = await refusal(bytes);
      return { ms: performance.now() - started, outcome };
    };
    for (const make of hostile) {
      const small = make(MB);
      const large = make(10 * MB);
      // The smaller of two runs each: one pause of the machine does not decide the ratio.
      const smallMs = Math.min((await timed(small)).ms, (await timed(small)).ms);
      const first = await timed(large);
      const largeMs = Math.min(first.ms, (await timed(large)).ms);
      expect(largeMs / Math.max(smallMs, 5), first.outcome).toBeLessThan(40);
    }
  });
});
