import type { ByteSource } from './byte-source.ts';
import { probeMp3 } from './mp3.ts';
import { probeOgg } from './ogg.ts';
import { type AudioInfo, ascii, invalid, notAllowed } from './types.ts';
import { probeWav } from './wav.ts';

export { type ByteSource, bufferSource, openFileSource } from './byte-source.ts';
export { type AudioInfo, AudioProbeError } from './types.ts';

/** Other formats people upload, named so the refusal says what the file was. */
const OTHER_FORMATS: [test: (head: Buffer) => boolean, name: string][] = [
  [(h) => ascii(h, 0, 4) === 'fLaC', 'FLAC'],
  [(h) => ascii(h, 4, 4) === 'ftyp', 'MP4/M4A'],
  [(h) => ascii(h, 0, 5) === '#!AMR', 'AMR'],
  [(h) => ascii(h, 0, 4) === 'FORM', 'AIFF'],
  [(h) => h.readUInt32BE(0) === 0x3026b275, 'WMA'],
  [(h) => ascii(h, 0, 4) === 'RIFF' || ascii(h, 0, 4) === 'RIFX' || ascii(h, 0, 4) === 'RF64', 'RIFF (not WAVE)'],
  [(h) => h.readUInt32BE(0) === 0x1a45dfa3, 'WebM/Matroska'],
];

/**
 * What an uploaded file is, decided by its content alone (never its name or declared type), and
 * how long it plays. MP3, WAV and Ogg (Vorbis/Opus) are read by small parsers of our own: each
 * one reads a bounded number of bytes per structure through `src` (never past the file's end),
 * loops are bounded by the file's size, and every inconsistency is an `AudioProbeError`.
 */
export async function probeAudio(src: ByteSource): Promise<AudioInfo> {
  if (src.size === 0) throw invalid('empty file');
  const head = Buffer.alloc(16);
  (await src.read(0, 16)).copy(head);
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WAVE') return probeWav(src);
  if (ascii(head, 0, 4) === 'OggS') return probeOgg(src);
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0)) return probeMp3(src);
  const other = OTHER_FORMATS.find(([test]) => test(head));
  throw notAllowed(other ? other[1] : 'unknown content');
}
