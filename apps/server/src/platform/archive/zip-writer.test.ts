import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/server.test-support.ts';
import { openZip } from './zip.ts';
import { createZipFile } from './zip-writer.ts';

describe('the streaming zip writer', () => {
  it('writes entries openZip reads back byte for byte (data descriptors, CRC, sizes)', async () => {
    const file = path.join(tempDir('zip-writer-'), 'out.zip');
    const zip = createZipFile(file);
    // Half random (incompressible), half text: both deflate paths, within openZip's ratio limit.
    const big = Buffer.concat([
      crypto.randomBytes(1536 * 1024),
      Buffer.from('"12345678";"0001";"95"\n'.repeat(64_000)),
    ]);
    const first = zip.entry('K3241.K03200Y0.D51108.ESTABELE');
    for (let at = 0; at < big.length; at += 100_000) await first.write(big.subarray(at, at + 100_000));
    await first.end();
    const second = zip.entry('São Paulo.txt');
    await second.write('"12345678";"SÃO PAULO"\n');
    await second.end();
    const empty = zip.entry('empty.txt');
    await empty.end();
    await zip.close();

    const archive = await openZip(file);
    expect(archive.entries.map((e) => e.name)).toEqual([
      'K3241.K03200Y0.D51108.ESTABELE',
      'São Paulo.txt',
      'empty.txt',
    ]);
    expect((await archive.readEntry(archive.entries[0]!)).equals(big)).toBe(true);
    expect((await archive.readEntry(archive.entries[1]!)).toString()).toBe('"12345678";"SÃO PAULO"\n');
    expect((await archive.readEntry(archive.entries[2]!)).length).toBe(0);
    expect(archive.entries[0]!.compressedSize).toBeLessThan(big.length);
    expect(fs.statSync(file).size).toBeGreaterThan(0);
  });

  it("keeps each entry's permission bits as Unix tools do, and is itself private", async () => {
    const file = path.join(tempDir('zip-writer-'), 'modes.zip');
    fs.writeFileSync(file, 'an older file, world-readable');
    fs.chmodSync(file, 0o644);
    const zip = createZipFile(file);
    await zip.entry('data/', undefined, 0o750).end();
    await zip.entry('data/auth-secret', undefined, 0o600).end();
    await zip.entry('data/notes.txt').end();
    await zip.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const archive = await openZip(file);
    expect(archive.entries.map((e) => [e.name, e.unixMode])).toEqual([
      ['data/', 0o750],
      ['data/auth-secret', 0o600],
      ['data/notes.txt', undefined],
    ]);
    // Another implementation reads them the same way.
    const listing = execFileSync('zipinfo', [file], { encoding: 'utf8' });
    expect(listing).toMatch(/^drwxr-x---.* data\/$/m);
    expect(listing).toMatch(/^-rw-------.* data\/auth-secret$/m);
  });
});
