import type { AudioCodec } from '@ecoa/shared';
import type { ByteSource } from './byte-source.ts';
import { type AudioInfo, ascii, invalid, notAllowed } from './types.ts';

/** More chunks than any real WAV has before its data (fmt, fact, LIST, bext, cue…). */
const MAX_CHUNKS = 1024;

/** The `fmt ` format tags we accept: what browsers and telephony carriers play. */
const CODECS: Record<number, { codec: AudioCodec; bits: number[] }> = {
  1: { codec: 'pcm', bits: [8, 16, 24, 32] },
  3: { codec: 'float', bits: [32, 64] },
  6: { codec: 'alaw', bits: [8] },
  7: { codec: 'mulaw', bits: [8] },
};
const EXTENSIBLE = 0xfffe;

/**
 * A RIFF/WAVE file: the chunks are walked from the start (each header read, each body skipped,
 * word-aligned) to `fmt ` and then `data`. Duration = whole sample frames in the data chunk ÷
 * the sample rate; a data chunk that claims more than the file holds (streaming writers leave
 * 0xFFFFFFFF) counts what is there.
 */
export async function probeWav(src: ByteSource): Promise<AudioInfo> {
  const head = await src.read(0, 12);
  if (head.length < 12 || ascii(head, 0, 4) !== 'RIFF' || ascii(head, 8, 4) !== 'WAVE') {
    throw notAllowed('not a RIFF/WAVE file');
  }
  let fmt: { codec: AudioCodec; channels: number; sampleRate: number; blockAlign: number } | undefined;
  let offset = 12;
  for (let chunks = 0; offset + 8 <= src.size; chunks++) {
    if (chunks >= MAX_CHUNKS) throw invalid('too many chunks before the audio data');
    const header = await src.read(offset, 8);
    const id = ascii(header, 0, 4);
    const size = header.readUInt32LE(4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + size > src.size) throw invalid('fmt chunk too short');
      fmt = readFormat(await src.read(body, Math.min(size, 40)));
    } else if (id === 'data') {
      if (!fmt) throw invalid('data chunk before the fmt chunk');
      const frames = Math.floor(Math.min(size, src.size - body) / fmt.blockAlign);
      if (frames === 0) throw invalid('no audio samples');
      return {
        format: 'wav',
        codec: fmt.codec,
        durationSeconds: frames / fmt.sampleRate,
        sampleRate: fmt.sampleRate,
        channels: fmt.channels,
      };
    }
    offset = body + size + (size % 2);
  }
  throw invalid(fmt ? 'no data chunk' : 'no fmt chunk');
}

function readFormat(b: Buffer) {
  let tag = b.readUInt16LE(0);
  const channels = b.readUInt16LE(2);
  const sampleRate = b.readUInt32LE(4);
  const blockAlign = b.readUInt16LE(12);
  const bits = b.readUInt16LE(14);
  if (tag === EXTENSIBLE) {
    // WAVE_FORMAT_EXTENSIBLE: the real tag is the first two bytes of the SubFormat GUID.
    if (b.length < 40 || b.readUInt16LE(16) < 22) throw invalid('extensible fmt chunk too short');
    tag = b.readUInt16LE(24);
  }
  const known = CODECS[tag];
  if (!known) throw notAllowed(`WAV codec 0x${tag.toString(16)} is not PCM, float or G.711`);
  if (!known.bits.includes(bits)) throw notAllowed(`${bits}-bit ${known.codec} WAV`);
  if (channels < 1 || channels > 32) throw invalid(`${channels} channels`);
  if (sampleRate < 1000 || sampleRate > 384_000) throw invalid(`sample rate ${sampleRate} Hz`);
  if (blockAlign !== (channels * bits) / 8) throw invalid('block alignment does not match the sample format');
  return { codec: known.codec, channels, sampleRate, blockAlign };
}
