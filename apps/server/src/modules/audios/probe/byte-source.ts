import fs from 'node:fs';

/**
 * Random access to the bytes of an uploaded file, for the audio parsers. `read` answers at most
 * `length` bytes from `offset` (fewer at the end of the file, none past it), so a parser never
 * reads outside the file whatever a header claims.
 */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Buffer>;
}

export function bufferSource(bytes: Buffer): ByteSource {
  return {
    size: bytes.length,
    async read(offset, length) {
      const start = clamp(offset, 0, bytes.length);
      return bytes.subarray(start, clamp(start + Math.max(0, length), start, bytes.length));
    },
  };
}

/** What one file read fetches: parsers make many small reads close together (MP3 frame headers). */
const WINDOW = 64 * 1024;

/**
 * A file read through one 64 KB window: the parsers' small reads cost a copy, not a system call,
 * and memory stays at the window whatever the file's size.
 */
export async function openFileSource(filePath: string): Promise<ByteSource & { close(): Promise<void> }> {
  const handle = await fs.promises.open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    let windowStart = 0;
    let window = Buffer.alloc(0);
    const fetch = async (offset: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    };
    return {
      size,
      async read(offset, length) {
        const start = clamp(offset, 0, size);
        const end = clamp(start + Math.max(0, length), start, size);
        if (start >= windowStart && end <= windowStart + window.length) {
          return window.subarray(start - windowStart, end - windowStart);
        }
        if (end - start > WINDOW) return fetch(start, end - start);
        windowStart = start;
        window = await fetch(start, Math.min(WINDOW, size - start));
        return window.subarray(0, end - start);
      },
      close: () => handle.close(),
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

function clamp(n: number, min: number, max: number): number {
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.floor(n))) : min;
}
