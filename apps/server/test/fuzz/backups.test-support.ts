/**
 * Backup archives (`npm run backup`) as `npm run restore` reads them, and as they break: the
 * real archive's bytes mutated (mostly its central directory and end records, where a flipped
 * byte changes what the reader believes), truncated, or rebuilt from its own entries (the
 * compressed data reused, so rebuilding costs no compression) with a tampered manifest, an
 * entry missing, renamed out of DATA_DIR, duplicated, or a file where a folder should be.
 */
import fs from 'node:fs';
import fc from 'fast-check';
import { openZip } from '../../src/platform/archive/zip.ts';
import { type TestZipEntry, zipBuffer } from '../zip-writer.test-support.ts';
import { mutated, randomBytes } from './mutations.test-support.ts';

type RawEntry = Required<Pick<TestZipEntry, 'name' | 'method' | 'compressed' | 'crc32' | 'size'>>;

/** The entries of a real archive with their compressed bytes, to lay out again. */
export async function rawEntries(file: string): Promise<RawEntry[]> {
  const bytes = fs.readFileSync(file);
  const zip = await openZip(file);
  return zip.entries.map((e) => {
    const start = e.localHeaderOffset + 30 + bytes.readUInt16LE(e.localHeaderOffset + 26);
    const extra = bytes.readUInt16LE(e.localHeaderOffset + 28);
    return {
      name: e.name,
      method: e.method,
      crc32: e.crc32,
      size: e.size,
      compressed: bytes.subarray(start + extra, start + extra + e.compressedSize),
    };
  });
}

type Manifest = Record<string, unknown> & { tables: Record<string, string>; ledger: Record<string, unknown> };

/** What a tampered manifest says instead (each a JSON text, or bytes that are not JSON). */
function manifestTampering(manifest: Manifest): fc.Arbitrary<string | Buffer> {
  const tables = Object.keys(manifest.tables);
  return fc.oneof(
    fc.constantFrom(
      JSON.stringify({ ...manifest, format: 'other-backup' }),
      JSON.stringify({ ...manifest, formatVersion: 99 }),
      JSON.stringify({ ...manifest, formatVersion: '1' }),
      JSON.stringify({ ...manifest, migrations: 1 }),
      JSON.stringify({ ...manifest, ledger: { ...manifest.ledger, BALANCE: { entries: '1', available: '5' } } }),
      JSON.stringify({ ...manifest, tables: null }),
      JSON.stringify({ ...manifest, ledger: 'x' }),
      JSON.stringify([manifest]),
      'null',
      '',
      Buffer.from([0xff, 0xfe, 0x00]),
    ),
    fc
      .tuple(fc.constantFrom(...tables), fc.integer({ min: 1, max: 1_000 }))
      .map(([t, n]) => JSON.stringify({ ...manifest, tables: { ...manifest.tables, [t]: String(n) } })),
    mutated(fc.constant(Buffer.from(JSON.stringify(manifest)))),
  );
}

/** The restore's inputs for one real backup: its bytes damaged, or its entries laid out wrong. */
export function backupInputs(archive: Buffer, entries: RawEntry[], manifest: Manifest): fc.Arbitrary<Buffer> {
  const manifestAt = entries.findIndex((e) => e.name === 'manifest.json');
  const files = entries
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => e.name.startsWith('data/') && !e.name.endsWith('/'));
  const directoryStart = archive.length - Math.min(archive.length, 60 * entries.length + 100);
  const layout = (list: TestZipEntry[]) => zipBuffer(list);
  const withEntry = (i: number, replace: TestZipEntry | null) =>
    layout(replace ? entries.map((e, j) => (j === i ? replace : e)) : entries.filter((_, j) => j !== i));

  // Byte-level: the central directory and end records, then anywhere (mostly compressed data: a CRC failure).
  const directoryDamaged = mutated(fc.constant(archive.subarray(directoryStart))).map((tail) =>
    Buffer.concat([archive.subarray(0, directoryStart), tail]),
  );
  const anywhere = mutated(fc.constant(archive));

  const rebuilt = fc.oneof(
    manifestTampering(manifest).map((text) => withEntry(manifestAt, { name: 'manifest.json', data: text })),
    fc.constant(withEntry(manifestAt, null)),
    fc.constantFrom(...files).map(({ i }) => withEntry(i, null)),
    fc
      .tuple(
        fc.constantFrom(...files),
        fc.constantFrom('data/../escaped', '/etc/ecoa', 'data/a\\..\\b', 'data//x', 'outside.txt', 'data/./x'),
      )
      .map(([{ e, i }, name]) => withEntry(i, { ...e, name })),
    // The same path twice, or a file and a folder under one name.
    fc.constantFrom(...files).map(({ e }) => layout([...entries, e])),
    fc.constantFrom(...files).map(({ e }) => layout([...entries, { name: `${e.name}/`, data: '' }])),
    fc.constant(layout([...entries, { name: 'data/pglite/base', data: 'not a folder' }])),
  );

  return fc.oneof(
    { weight: 3, arbitrary: directoryDamaged },
    { weight: 2, arbitrary: anywhere },
    { weight: 4, arbitrary: rebuilt },
    { weight: 1, arbitrary: randomBytes },
  );
}
