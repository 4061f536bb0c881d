/**
 * One run of the list-import bench in its own process (see lists-import.bench.ts): the whole
 * server (migrations, jobs, routes) on a fresh DATA_DIR, one signed-up user, the CSV uploaded
 * over HTTP (`inject`, multipart streamed from disk), then GET /api/v1/lists/:id until ready.
 * Prints one JSON line of figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { normalizeBrazilianPhone } from '@ecoa/shared';
import pino from 'pino';
import { openSpreadsheet } from '../src/modules/lists/parser/source.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import type { Logger } from '../src/platform/logger.ts';
import { startServer } from '../src/server.ts';
import { bearer, signUpAndSignIn } from '../test/factories.test-support.ts';

const args = JSON.parse(process.argv[2] ?? '{}') as {
  kind: string;
  file: string;
  rows: string;
  databaseUrl?: string;
  /** The upload's file name (its extension does not matter to the server: the type is sniffed). */
  fileName?: string;
  /** A file meant to fail: the error code its list must end with (the figures are still printed). */
  expectError?: string;
};
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

// Peak memory: sampled RSS while the import runs, and the kernel's lifetime maximum.
let peakRss = 0;
let peakHeap = 0;
let atPeak = { external: 0, arrayBuffers: 0 };
const sample = () => {
  const m = process.memoryUsage();
  if (m.rss > peakRss) atPeak = { external: m.external, arrayBuffers: m.arrayBuffers };
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};

async function parseOnly(file: string): Promise<number> {
  const started = performance.now();
  const sheet = await openSpreadsheet(file);
  const seen = new Set<string>();
  let first = true;
  for await (const batch of sheet.rows()) {
    for (const row of batch) {
      if (first) {
        first = false;
        continue;
      }
      const r = normalizeBrazilianPhone(row[1]);
      if (r.ok) seen.add(r.e164);
    }
  }
  return (performance.now() - started) / 1000;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-bench-lists-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    ...(args.databaseUrl ? { DATABASE_URL: args.databaseUrl } : {}),
  });
  // Keep the import's own log line (its phase timings); drop the rest.
  let importLog: Record<string, unknown> | undefined;
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) {
        if (line.includes('"list imported"') || line.includes('list import failed')) importLog = JSON.parse(line);
      }
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink) as unknown as Logger;
  const server = await startServer({ config, logger, listen: false });
  try {
    const { token } = await signUpAndSignIn(server);
    const fileBytes = fs.statSync(args.file).size;
    global.gc?.();
    const baselineRss = process.memoryUsage().rss;
    peakRss = baselineRss;
    const sampler = setInterval(sample, 25);

    const boundary = '----ecoabench';
    const body = Readable.from(
      (async function* () {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench ${args.rows}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${args.fileName ?? 'bench.csv'}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        );
        for await (const chunk of fs.createReadStream(args.file, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
        yield Buffer.from(`\r\n--${boundary}--\r\n`);
      })(),
    );
    const started = performance.now();
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/lists',
      payload: body,
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const uploaded = performance.now();
    let list: Record<string, unknown>;
    let firstProgressAt = 0;
    if (res.statusCode === 201) {
      const id = res.json().id as string;
      for (;;) {
        const r = await server.app.inject({ method: 'GET', url: `/api/v1/lists/${id}`, headers: bearer(token) });
        list = r.json();
        if (!firstProgressAt && Number(list.rowsProcessed) > 0) firstProgressAt = performance.now();
        if (list.status !== 'importing') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } else if (args.expectError) {
      // Refused at upload (the sample read met the problem): no list was created.
      list = { status: `refused ${res.statusCode}`, errorCode: res.json().code, error: res.json().message };
    } else {
      throw new Error(`upload ${res.statusCode}: ${res.body}`);
    }
    const finished = performance.now();
    clearInterval(sampler);
    sample();
    if (args.expectError ? list.errorCode !== args.expectError : list.status !== 'ready') {
      throw new Error(`import ${list.status}: ${list.errorCode} ${list.error}`);
    }
    const seconds = (finished - started) / 1000;
    // Memory given back: the RSS a few seconds after the import (the worker thread gone, a GC run).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAfter = process.memoryUsage().rss;
    const parseSeconds = args.expectError ? -1 : await parseOnly(args.file);
    const timings = (importLog?.timingsMs ?? {}) as Record<string, number>;
    const figures = {
      db: args.kind,
      rows: Number(args.rows),
      fileMb: Math.round((fileBytes / 1024 / 1024) * 10) / 10,
      seconds: Math.round(seconds * 100) / 100,
      rowsPerSecond: Math.round(Number(args.rows) / seconds),
      uploadSeconds: Math.round((uploaded - started) / 10) / 100,
      importSeconds: Math.round((finished - uploaded) / 10) / 100,
      queueWaitSeconds: firstProgressAt ? Math.round((firstProgressAt - uploaded) / 10) / 100 : -1,
      workerReadParseMs: timings.worker_read ?? -1,
      workerRowsMs: timings.worker_rows ?? -1,
      workerWaitingForDbMs: timings.worker_waitDb ?? -1,
      importContactsWriteMs: timings.write ?? -1,
      importInvalidWriteMs: timings.invalid ?? -1,
      importTotalMs: timings.total ?? -1,
      parseOnlySeconds: Math.round(parseSeconds * 100) / 100,
      peakRssMb: mb(peakRss),
      baselineRssMb: mb(baselineRss),
      peakRssAboveIdleMb: mb(peakRss - baselineRss),
      rssAfterMb: mb(rssAfter),
      rssAfterAboveIdleMb: mb(rssAfter - baselineRss),
      maxRssLifetimeMb: Math.round(process.resourceUsage().maxRSS / 1024),
      peakHeapMb: mb(peakHeap),
      /** At the RSS peak: memory outside the JS heap (PGlite's WASM memory is counted here). */
      externalAtPeakMb: mb(atPeak.external),
      arrayBuffersAtPeakMb: mb(atPeak.arrayBuffers),
      loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
      status: String(list.status),
      errorCode: String(list.errorCode ?? ''),
      total: Number(list.total),
      valid: Number(list.valid),
      mobiles: Number(list.mobiles),
      landlines: Number(list.landlines),
      invalid: Number(list.invalid),
      duplicates: Number(list.duplicates),
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
