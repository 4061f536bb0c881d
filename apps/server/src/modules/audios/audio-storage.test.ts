import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/server.test-support.ts';
import { createAudioStorage } from './audio-storage.ts';

describe('audio storage', () => {
  it('receives to a temporary file, keeps it under a new name, serves ranges, removes it', async () => {
    const storage = createAudioStorage(tempDir());
    const received = await storage.receive(Readable.from([Buffer.from('0123456789')]));
    expect(received.size).toBe(10);
    const name = await storage.keep(received.path, 'wav');
    expect(name).toMatch(/^[0-9a-f]{32}\.wav$/);
    expect(fs.existsSync(received.path)).toBe(false);
    const opened = (await storage.open(name))!;
    expect(opened.size).toBe(10);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream({ start: 2, end: 4 })) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('234');
    await storage.remove(name);
    expect(await storage.open(name)).toBeNull();
  });

  it('never reads or removes outside its folder', async () => {
    const dataDir = tempDir();
    const storage = createAudioStorage(dataDir);
    const outside = path.join(dataDir, 'auth-secret');
    fs.writeFileSync(outside, 'secret');
    for (const name of ['../auth-secret', 'auth-secret', `${'a'.repeat(32)}.txt`, '/etc/passwd']) {
      expect(await storage.open(name)).toBeNull();
      await storage.remove(name);
    }
    await storage.discard(outside);
    await expect(storage.keep(outside, 'mp3')).rejects.toThrow();
    expect(fs.readFileSync(outside, 'utf8')).toBe('secret');
  });

  it('removes uploads a dead process left behind, at the first upload', async () => {
    const dataDir = tempDir();
    const dir = path.join(dataDir, 'audios');
    fs.mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, `${'b'.repeat(32)}.upload`);
    const fresh = path.join(dir, `${'c'.repeat(32)}.upload`);
    const kept = path.join(dir, `${'d'.repeat(32)}.mp3`);
    for (const file of [stale, fresh, kept]) fs.writeFileSync(file, 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);
    fs.utimesSync(kept, twoHoursAgo, twoHoursAgo);
    const storage = createAudioStorage(dataDir);
    const received = await storage.receive(Readable.from([Buffer.from('new')]));
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.existsSync(kept)).toBe(true);
    await storage.discard(received.path);
  });
});
