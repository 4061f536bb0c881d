import { AUDIO_ERROR_CODES } from '@ecoa/shared';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_ERROR_CODES } from '../../src/modules/lists/parser/errors.ts';
import type { RunningServer } from '../../src/server.ts';
import { bearer, signUpAndSignIn } from '../factories.test-support.ts';
import { injectAs } from '../http.test-support.ts';
import { waitForListImported } from '../lists.test-support.ts';
import { multipart } from '../multipart.test-support.ts';
import { createTestServer, dbKind } from '../server.test-support.ts';
import { audioBytes } from './audio.test-support.ts';
import { csvBytes } from './csv.test-support.ts';
import { type FuzzOutcome, fuzz } from './harness.test-support.ts';
import { mutated, randomBytes } from './mutations.test-support.ts';
import { xlsxBytes } from './xlsx.test-support.ts';

/** Per target: at most this many inputs or this long, whichever comes first. */
const BUDGET = { runs: 400, timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000, maxRssGrowthMb: 400 };
const FILE_CODES = FILE_ERROR_CODES;

/** Every upload reader, fed hostile bytes through its real route. */
describe(`fuzzing the upload readers (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;

  beforeAll(async () => {
    server = await createTestServer();
    token = (await signUpAndSignIn(server)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function send(method: 'POST' | 'PUT', url: string, content: Buffer, filename: string) {
    const form = multipart([{ name: 'file', filename, content }]);
    return injectAs(server, token, { method, url, payload: form.payload, headers: form.headers });
  }

  /** A 4xx with its code is a refusal; anything else (a 5xx, no code) is a code the harness rejects. */
  function refusal(res: { statusCode: number; json(): { code?: string } }): FuzzOutcome {
    const code = res.json().code ?? 'NO_CODE';
    return { refused: res.statusCode >= 500 ? `HTTP_${res.statusCode}_${code}` : code };
  }

  async function importList(bytes: Buffer, filename: string): Promise<FuzzOutcome> {
    const res = await send('POST', '/api/v1/lists', bytes, filename);
    if (res.statusCode !== 201) return refusal(res);
    const id = res.json().id as string;
    const list = await waitForListImported(server, token, id, 30_000).catch(() => undefined);
    if (!list) return { refused: 'STILL_IMPORTING_AFTER_30_S' };
    if (list.status === 'ready') return { accepted: true };
    return { refused: list.errorCode ?? `LIST_${list.status}` };
  }

  it('list imports: every CSV is imported or refused with a file error code', async () => {
    const inputs = fc.oneof({ weight: 6, arbitrary: mutated(csvBytes) }, { weight: 1, arbitrary: randomBytes });
    const result = await fuzz(
      { name: 'list import (CSV)', inputs, feed: (b) => importList(b, 'fuzz.csv'), codes: FILE_CODES },
      BUDGET,
    );
    expect(result.runs).toBeGreaterThan(10);
  }, 120_000);

  it('list imports: every XLSX is imported or refused with a file error code', async () => {
    // Each XLSX starts two worker threads (the sample, the import): fewer runs fit the budget.
    const result = await fuzz(
      { name: 'list import (XLSX)', inputs: xlsxBytes, feed: (b) => importList(b, 'fuzz.xlsx'), codes: FILE_CODES },
      BUDGET,
    );
    expect(result.runs).toBeGreaterThan(5);
  }, 120_000);

  it('list previews: the mapping step reads the same bytes without failing', async () => {
    const inputs = fc.oneof({ weight: 6, arbitrary: mutated(csvBytes) }, { weight: 1, arbitrary: randomBytes });
    const feed = async (bytes: Buffer): Promise<FuzzOutcome> => {
      const res = await send('POST', '/api/v1/lists/preview', bytes, 'fuzz.csv');
      return res.statusCode === 200 ? { accepted: true } : refusal(res);
    };
    const result = await fuzz({ name: 'list preview (CSV)', inputs, feed, codes: FILE_CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(10);
  }, 120_000);

  it('opt-out uploads: every file adds its numbers or is refused with a file error code', async () => {
    const inputs = fc.oneof({ weight: 6, arbitrary: mutated(csvBytes) }, { weight: 1, arbitrary: randomBytes });
    const feed = async (bytes: Buffer): Promise<FuzzOutcome> => {
      const res = await send('POST', '/api/v1/opt-outs/upload', bytes, 'sair.csv');
      return res.statusCode === 200 ? { accepted: true } : refusal(res);
    };
    const result = await fuzz({ name: 'opt-out upload (CSV)', inputs, feed, codes: FILE_CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(10);
  }, 120_000);

  it('profile pictures: every image is stored or refused with an image error code', async () => {
    const valid = await Promise.all(
      (['png', 'jpeg', 'webp', 'gif'] as const).flatMap((format) =>
        [
          [40, 30],
          [300, 200],
        ].map(([width, height]) =>
          sharp({ create: { width: width!, height: height!, channels: 3, background: { r: 200, g: 80, b: 20 } } })
            .toFormat(format)
            .toBuffer(),
        ),
      ),
    );
    const inputs = fc.oneof(
      { weight: 6, arbitrary: mutated(fc.constantFrom(...valid)) },
      { weight: 1, arbitrary: randomBytes },
    );
    const feed = async (bytes: Buffer): Promise<FuzzOutcome> => {
      const res = await send('PUT', '/api/v1/me/avatar', bytes, 'foto.png');
      return res.statusCode === 200 ? { accepted: true } : refusal(res);
    };
    const codes = [
      'IMAGE_TOO_LARGE',
      'IMAGE_TYPE_NOT_ALLOWED',
      'IMAGE_INVALID',
      'IMAGE_DIMENSIONS_TOO_LARGE',
      'IMAGE_REQUIRED',
    ];
    const result = await fuzz({ name: 'profile picture', inputs, feed, codes }, BUDGET);
    expect(result.runs).toBeGreaterThan(10);
  }, 120_000);

  it('audio uploads: every file is stored with a duration or refused with an audio error code', async () => {
    const inputs = fc.oneof({ weight: 6, arbitrary: audioBytes }, { weight: 1, arbitrary: randomBytes });
    const feed = async (bytes: Buffer): Promise<FuzzOutcome> => {
      const form = multipart([
        { name: 'name', value: 'Fuzz' },
        { name: 'file', filename: 'fuzz.mp3', content: bytes },
      ]);
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/audios',
        payload: form.payload,
        headers: { ...form.headers, ...bearer(token) },
      });
      if (res.statusCode !== 201) return refusal(res);
      const audio = res.json() as { id: string; durationSeconds: number; sizeBytes: number };
      expect(audio.durationSeconds).toBeGreaterThan(0);
      expect(audio.durationSeconds).toBeLessThan(180.5);
      expect(audio.sizeBytes).toBe(bytes.length);
      // What was kept is served back as it came, and can be deleted.
      const file = await server.app.inject({
        method: 'GET',
        url: `/api/v1/audios/${audio.id}/file`,
        headers: bearer(token),
      });
      expect(file.rawPayload.equals(bytes)).toBe(true);
      const deleted = await server.app.inject({
        method: 'DELETE',
        url: `/api/v1/audios/${audio.id}`,
        headers: bearer(token),
      });
      expect(deleted.statusCode).toBe(204);
      return { accepted: true };
    };
    const result = await fuzz({ name: 'audio upload', inputs, feed, codes: AUDIO_ERROR_CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(10);
  }, 120_000);
});
