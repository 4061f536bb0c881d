import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/server.test-support.ts';
import {
  deflateRaw,
  sharedStringsBomb,
  type TestZipEntry,
  zipBuffer,
  zipParts,
} from '../../../test/zip-writer.test-support.ts';
import { openZip, ZipFormatError, ZipLimitError, type ZipLimits } from './zip.ts';

const dir = tempDir('ecoa-zip-');
let n = 0;
function write(buffer: Buffer): string {
  const file = path.join(dir, `${n++}.zip`);
  fs.writeFileSync(file, buffer);
  return file;
}
const zipFile = (entries: TestZipEntry[], options?: Parameters<typeof zipBuffer>[1]) =>
  write(zipBuffer(entries, options));

async function readAll(file: string, name: string, limits: Partial<ZipLimits> = {}): Promise<Buffer> {
  const zip = await openZip(file, limits);
  return zip.readEntry(zip.find(name)!);
}

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

const openFds = () => fs.readdirSync('/proc/self/fd').length;
/** `bytes` of CSV-like text that deflates about as well as real data (~4×). */
function text(bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes; i++)
    out += `Contato ${(i * 7919) % 100_003};119${String((i * 104_729) % 1e8).padStart(8, '0')}\n`;
  return out.slice(0, bytes);
}

describe('openZip: reading', () => {
  it('reads stored and deflated entries, by name, with their declared sizes', async () => {
    const file = zipFile([
      { name: 'a.txt', data: 'hello', method: 0 },
      { name: 'dir/', data: '', method: 0 },
      { name: 'dir/b.xml', data: text(300_000) },
      { name: 'empty.txt', data: '', method: 0 },
      { name: 'ção.txt', data: 'utf-8 name' },
    ]);
    const zip = await openZip(file);
    expect(zip.entries.map((e) => e.name)).toEqual(['a.txt', 'dir/', 'dir/b.xml', 'empty.txt', 'ção.txt']);
    expect(zip.find('dir/')?.isDirectory).toBe(true);
    expect((await zip.readEntry(zip.find('a.txt')!)).toString()).toBe('hello');
    expect((await zip.readEntry(zip.find('dir/b.xml')!)).toString()).toBe(text(300_000));
    expect((await zip.readEntry(zip.find('empty.txt')!)).length).toBe(0);
    expect((await zip.readEntry(zip.find('ção.txt')!)).toString()).toBe('utf-8 name');
    expect(zip.find('dir/b.xml')).toMatchObject({ method: 8, size: 300_000 });
    expect(zip.inflatedBytes()).toBe(5 + 300_000 + 10);
  });

  it('streams an entry and reports the compressed bytes read', async () => {
    const data = Buffer.from(text(2_000_000));
    const zip = await openZip(zipFile([{ name: 'big.csv', data }]));
    const stream = await zip.openEntry(zip.find('big.csv')!);
    let bytes = 0;
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    expect(bytes).toBe(2_000_000);
    expect(stream.compressedBytesRead()).toBe(zip.find('big.csv')!.compressedSize);
  });

  it('reads ZIP64 archives (end records and extra fields)', async () => {
    const file = zipFile(
      [
        { name: 'a.csv', data: text(100_000) },
        { name: 'b.txt', data: 'stored', method: 0 },
      ],
      { zip64: true },
    );
    expect((await readAll(file, 'a.csv')).toString()).toBe(text(100_000));
    expect((await readAll(file, 'b.txt')).toString()).toBe('stored');
  });

  it('reads a ZIP64 entry past 4 GiB in a sparse file', async () => {
    const file = path.join(dir, 'sparse64.zip');
    const parts = zipParts([{ name: 'far.csv', data: text(50_000) }], { zip64: true });
    const offset = 4 * 1024 ** 3 + 123;
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, Buffer.from('PK\x03\x04'), 0, 4, 0); // never read: the directory points past it
    fs.writeSync(fd, parts.locals[0]!, 0, parts.locals[0]!.length, offset);
    const cdOffset = offset + parts.locals[0]!.length;
    const directory = parts.directory([offset], cdOffset);
    fs.writeSync(fd, directory, 0, directory.length, cdOffset);
    fs.closeSync(fd);
    const zip = await openZip(file);
    expect(zip.find('far.csv')?.localHeaderOffset).toBe(offset);
    expect((await zip.readEntry(zip.find('far.csv')!)).toString()).toBe(text(50_000));
    fs.rmSync(file);
  });

  it('finds the end record behind an archive comment', async () => {
    const file = zipFile([{ name: 'a', data: 'x' }], { comment: 'PK\x05\x06 not a real end record' });
    expect((await readAll(file, 'a')).toString()).toBe('x');
  });

  it('closes the file handle when a stream is destroyed mid-way, or ends', async () => {
    const file = zipFile([{ name: 'big.csv', data: text(5_000_000) }]);
    const zip = await openZip(file);
    const before = openFds();
    for (let i = 0; i < 20; i++) {
      const stream = await zip.openEntry(zip.find('big.csv')!);
      await new Promise<void>((resolve) => stream.once('data', () => resolve()));
      stream.destroy();
    }
    const ended = await zip.openEntry(zip.find('big.csv')!);
    for await (const _ of ended);
    await expect.poll(openFds).toBe(before);
  });
});

describe('openZip: limits', () => {
  it('refuses more entries than allowed', async () => {
    const file = zipFile([1, 2, 3].map((i) => ({ name: `e${i}`, data: 'x' })));
    const err = await failure(openZip(file, { maxEntries: 2 }));
    expect(err).toBeInstanceOf(ZipLimitError);
    expect(err).toMatchObject({ limit: 'entries', value: 3, max: 2 });
  });

  it('refuses an entry bigger than the per-entry limit or the caller’s maxBytes', async () => {
    const file = zipFile([{ name: 'a.csv', data: text(200_000) }]);
    expect(await failure(readAll(file, 'a.csv', { maxEntryBytes: 100_000 }))).toMatchObject({
      limit: 'entryBytes',
      value: 200_000,
      max: 100_000,
      entry: 'a.csv',
    });
    const zip = await openZip(file);
    expect(await failure(zip.readEntry(zip.find('a.csv')!, { maxBytes: 1000 }))).toMatchObject({
      limit: 'entryBytes',
      max: 1000,
    });
  });

  it('counts the inflated bytes of the whole archive, also across streams read at once', async () => {
    const file = zipFile([
      { name: 'a', data: text(600_000) },
      { name: 'b', data: text(600_000) },
    ]);
    const one = await openZip(file, { maxTotalBytes: 1_000_000 });
    await one.readEntry(one.find('a')!);
    expect(await failure(one.readEntry(one.find('b')!))).toMatchObject({ limit: 'totalBytes', max: 1_000_000 });

    // Both opened before either is read: only the counted bytes can stop them.
    const two = await openZip(file, { maxTotalBytes: 1_000_000 });
    const [a, b] = await Promise.all([two.openEntry(two.find('a')!), two.openEntry(two.find('b')!)]);
    const drain = async (s: typeof a) => {
      for await (const _ of s);
    };
    const results = await Promise.allSettled([drain(a), drain(b)]);
    const rejected = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected[0]!.reason).toMatchObject({ limit: 'totalBytes', max: 1_000_000 });
    expect(two.inflatedBytes()).toBeLessThan(1_000_000 + 128 * 1024);
  });

  it('refuses a compression ratio over the maximum once an entry passes the minimum size', async () => {
    const bomb = zipFile([{ name: 'zeros', data: Buffer.alloc(20_000_000) }]);
    const err = await failure(readAll(bomb, 'zeros'));
    expect(err).toBeInstanceOf(ZipLimitError);
    expect(err).toMatchObject({ limit: 'ratio', max: 200 });
    expect((err as ZipLimitError).value).toBeGreaterThan(200);
    // Small parts compress as much as they like.
    const tiny = zipFile([{ name: 'zeros', data: Buffer.alloc(500_000) }]);
    expect((await readAll(tiny, 'zeros')).length).toBe(500_000);
  });

  it('stops a bomb that lies about its size after one chunk, whatever it declares', async () => {
    // 1 GiB of one repeated string, declared as 1 KB.
    const { compressed } = sharedStringsBomb(1000, { crc: false });
    const file = zipFile([{ name: 'xl/sharedStrings.xml', method: 8, compressed, size: 1000 }]);
    const zip = await openZip(file);
    const stream = await zip.openEntry(zip.find('xl/sharedStrings.xml')!);
    let seen = 0;
    const err = await failure(
      (async () => {
        for await (const chunk of stream) seen += (chunk as Buffer).length;
      })(),
    );
    expect(err).toBeInstanceOf(ZipFormatError);
    expect(err.message).toMatch(/past its declared size/);
    expect(seen).toBe(0);
    expect(zip.inflatedBytes()).toBeLessThan(1024 * 1024);
  });

  it('a bomb padded to declare a harmless ratio is stopped by the counted one', async () => {
    // 1 GiB of inflated data in ~1 MB of deflate, followed by 5 MB of padding inside the entry:
    // the declared ratio is ~180, the real one ~1,000 from the first chunk.
    const { compressed, size } = sharedStringsBomb(1000, { crc: false });
    const padded = Buffer.concat([compressed, Buffer.alloc(5 * 1024 * 1024, 0x55)]);
    const file = zipFile([{ name: 'xl/sharedStrings.xml', method: 8, compressed: padded, size }]);
    const zip = await openZip(file, { maxEntryBytes: 2 * 1024 ** 3 });
    const entry = zip.find('xl/sharedStrings.xml')!;
    expect(entry.size / entry.compressedSize).toBeLessThan(200);
    const stream = await zip.openEntry(entry);
    const err = await failure(
      (async () => {
        for await (const _ of stream);
      })(),
    );
    expect(err).toMatchObject({ limit: 'ratio', max: 200 });
    expect(zip.inflatedBytes()).toBeLessThan(20 * 1024 * 1024);
  });

  it('the same bomb declared honestly is refused before inflating anything', async () => {
    const { compressed, size } = sharedStringsBomb(2000, { crc: false });
    expect(size).toBeGreaterThan(2_000_000_000);
    const file = zipFile([{ name: 'xl/sharedStrings.xml', method: 8, compressed, size }]);
    const zip = await openZip(file, { maxEntryBytes: 4 * 1024 ** 3 });
    expect(await failure(zip.openEntry(zip.find('xl/sharedStrings.xml')!))).toMatchObject({ limit: 'ratio' });
    const strict = await openZip(file);
    expect(await failure(strict.openEntry(strict.find('xl/sharedStrings.xml')!))).toMatchObject({
      limit: 'entryBytes',
    });
    expect(strict.inflatedBytes()).toBe(0);
  });
});

describe('openZip: broken and unsupported archives', () => {
  const good: TestZipEntry[] = [
    { name: 'a.txt', data: text(10_000) },
    { name: 'b.txt', data: text(20_000) },
  ];

  async function brokenBy(file: string, name = 'a.txt'): Promise<ZipFormatError> {
    const err = await failure(readAll(file, name));
    expect(err, err.message).toBeInstanceOf(ZipFormatError);
    return err as ZipFormatError;
  }

  it('refuses what is not a zip, and truncated archives', async () => {
    expect(await failure(openZip(write(Buffer.from('not a zip at all, just text'))))).toBeInstanceOf(ZipFormatError);
    expect(await failure(openZip(write(Buffer.alloc(0))))).toBeInstanceOf(ZipFormatError);
    const whole = zipBuffer(good);
    for (const cut of [10, 100, whole.length - 30, whole.length - 1]) {
      expect(await failure(openZip(write(whole.subarray(0, cut)))), `cut at ${cut}`).toBeInstanceOf(ZipFormatError);
    }
  });

  it('refuses entries whose data is cut or lies about its compressed size', async () => {
    // The compressed data declared shorter than it is: zlib runs out of input.
    const body = deflateRaw(text(10_000));
    expect(
      (await brokenBy(zipFile([{ name: 'a.txt', data: text(10_000), compressedSize: body.length - 20 }]))).message,
    ).toMatch(/a\.txt/);
    // Garbage instead of deflate data.
    await brokenBy(zipFile([{ name: 'a.txt', data: text(10_000), compressed: Buffer.alloc(500, 0xff) }]));
  });

  it('refuses entries that overlap, however the overlap is built', async () => {
    // Two directory entries pointing at the same local header.
    const parts = zipParts([
      { name: 'a.txt', data: 'x' },
      { name: 'b.txt', data: 'y', centralOnly: true, offset: 0 },
    ]);
    const shared = Buffer.concat([parts.locals[0]!, parts.directory([0, 0], parts.locals[0]!.length)]);
    expect((await failure(openZip(write(shared)))).message).toMatch(/overlap/);

    // A's compressed data quotes B's local header in a stored block and runs on into B's data:
    // each would inflate correctly, the bytes are shared (the overlapping-files zip bomb).
    const inner = zipParts([{ name: 'b.txt', data: text(20_000) }]);
    const bLocal = inner.locals[0]!;
    const bHeaderLength = bLocal.length - inner.prepared[0]!.body.length;
    const quote = Buffer.from([
      0x00,
      bHeaderLength & 0xff,
      bHeaderLength >> 8,
      ~bHeaderLength & 0xff,
      (~bHeaderLength >> 8) & 0xff,
    ]);
    const aCompressed = Buffer.concat([quote, bLocal]);
    const aData = Buffer.concat([bLocal.subarray(0, bHeaderLength), Buffer.from(text(20_000))]);
    const a = zipParts([{ name: 'a.txt', data: aData, compressed: aCompressed }]);
    const aHeader = a.locals[0]!.subarray(0, a.locals[0]!.length - aCompressed.length);
    const bOffset = aHeader.length + quote.length;
    const both = zipParts([
      { name: 'a.txt', data: aData, compressed: aCompressed },
      { name: 'b.txt', data: text(20_000), centralOnly: true, offset: bOffset },
    ]);
    const file = Buffer.concat([a.locals[0]!, both.directory([0, bOffset], a.locals[0]!.length)]);
    expect(zlib.inflateRawSync(aCompressed).equals(aData)).toBe(true);
    expect((await failure(openZip(write(file)))).message).toMatch(/overlap/);
  });

  it('refuses a local header that contradicts the central directory', async () => {
    for (const local of [{ name: 'other.txt' }, { method: 0 }, { size: 5 }, { compressedSize: 7 }, { crc32: 1 }]) {
      const err = await brokenBy(zipFile([{ name: 'a.txt', data: text(1000), local }]));
      expect(err.message, JSON.stringify(local)).toMatch(/local header|overlap/);
    }
  });

  it('refuses a wrong CRC, a size shorter than declared, absurd offsets', async () => {
    expect((await brokenBy(zipFile([{ name: 'a.txt', data: text(1000), crc32: 12345 }]))).message).toMatch(/CRC/);
    // Declared longer than it inflates (and the local header agrees).
    const longer = zipFile([{ name: 'a.txt', data: text(1000), size: 2000 }]);
    expect((await brokenBy(longer)).message).toMatch(/shorter than declared/);
    // A local header offset past the end of the file.
    const far = zipParts([{ name: 'a.txt', data: 'x', centralOnly: true, offset: 10_000_000 }]);
    expect(await failure(openZip(write(far.directory([0], 0))))).toBeInstanceOf(ZipFormatError);
    // A central directory said to be elsewhere.
    const buf = zipBuffer(good);
    buf.writeUInt32LE(0x7fffffff, buf.length - 6);
    expect(await failure(openZip(write(buf)))).toBeInstanceOf(ZipFormatError);
    // More entries declared than the directory holds.
    expect(await failure(openZip(zipFile(good, { declaredEntries: 3 })))).toBeInstanceOf(ZipFormatError);
  });

  it('says unsupported for encryption and other compression methods', async () => {
    const encrypted = await brokenBy(zipFile([{ name: 'a.txt', data: 'x', flags: 1 }]));
    expect(encrypted).toMatchObject({ unsupported: true });
    expect(encrypted.message).toMatch(/encrypted/);
    const bzip2 = await brokenBy(zipFile([{ name: 'a.txt', data: 'x', method: 12, compressed: Buffer.from('BZh9') }]));
    expect(bzip2).toMatchObject({ unsupported: true });
    expect(bzip2.message).toMatch(/method 12/);
  });
});
