/**
 * Byte-level mutations of a valid input, the classic fuzzing moves: flip bits, overwrite, insert
 * (random bytes, NULs, BOMs), delete, duplicate a range, truncate. Reusable by every reader's
 * fuzz test (spreadsheets, images, and later PDUs, webhooks, archives).
 */
import fc from 'fast-check';

type Mutation = (bytes: Buffer) => Buffer;

/** A position or share in [0, 1], spread evenly (fast-check's default leans to the edges). */
const fraction = (max = 1) => fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((n) => (n / 1_000_000) * max);

const BOMS = [Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])];

/** One mutation; positions are fractions of the length, so they fit whatever the input's size. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fraction(), fc.integer({ min: 0, max: 7 })).map(
    ([at, bit]): Mutation =>
      (b) => {
        if (b.length === 0) return b;
        const out = Buffer.from(b);
        const i = Math.min(out.length - 1, Math.floor(at * out.length));
        out[i] = out[i]! ^ (1 << bit);
        return out;
      },
  ),
  fc.tuple(fraction(), fc.uint8Array({ minLength: 1, maxLength: 16 })).map(
    ([at, bytes]): Mutation =>
      (b) => {
        const i = Math.floor(at * b.length);
        return Buffer.concat([b.subarray(0, i), Buffer.from(bytes), b.subarray(i)]);
      },
  ),
  fc.tuple(fraction(), fc.constantFrom(Buffer.from([0]), ...BOMS)).map(
    ([at, bytes]): Mutation =>
      (b) => {
        const i = Math.floor(at * b.length);
        return Buffer.concat([b.subarray(0, i), bytes, b.subarray(i)]);
      },
  ),
  fc.tuple(fraction(), fraction(0.2)).map(
    ([at, share]): Mutation =>
      (b) => {
        const i = Math.floor(at * b.length);
        return Buffer.concat([b.subarray(0, i), b.subarray(i + Math.ceil(share * b.length))]);
      },
  ),
  fc.tuple(fraction(), fraction(0.3)).map(
    ([at, share]): Mutation =>
      (b) => {
        const i = Math.floor(at * b.length);
        const range = b.subarray(i, i + Math.ceil(share * b.length));
        return Buffer.concat([b.subarray(0, i), range, range, b.subarray(i)]);
      },
  ),
  fraction().map(
    (keep): Mutation =>
      (b) =>
        b.subarray(0, Math.floor(keep * b.length)),
  ),
);

/** `valid` as it is (a share of the time) or with one to four mutations applied. */
export function mutated(valid: fc.Arbitrary<Buffer>): fc.Arbitrary<Buffer> {
  return fc
    .tuple(valid, fc.array(mutation, { minLength: 0, maxLength: 4 }))
    .map(([bytes, steps]) => steps.reduce((b, step) => step(b), bytes));
}

/** Bytes with no structure at all. */
export const randomBytes: fc.Arbitrary<Buffer> = fc
  .uint8Array({ minLength: 0, maxLength: 4096 })
  .map((b) => Buffer.from(b));
