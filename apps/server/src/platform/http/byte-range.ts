/** One byte range of a file, both ends inclusive (RFC 9110 §14.1.2). */
export type ByteRange = { start: number; end: number };

const SINGLE_RANGE = /^bytes=(\d{0,15})-(\d{0,15})$/;

/**
 * The `Range` of a GET for a file of `size` bytes (RFC 9110 §14.2): one range, `a-b`, `a-` or
 * `-suffix`. `null` means "send the whole file" — no header, another unit, several ranges or a
 * malformed one (a server may ignore those); `'unsatisfiable'` is a range wholly past the end
 * (answered 416 with `Content-Range: bytes *\/size`).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = SINGLE_RANGE.exec(header.replace(/\s+/g, ''));
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
