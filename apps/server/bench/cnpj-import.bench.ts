/**
 * The CNPJ base import: a synthetic base in the Receita's exact layout (zips, latin1, quoted),
 * 200,000 establishments (PGlite 50,000; BENCH_CNPJ_ROWS to change), imported into the bench's
 * database by the same importer `npm run cnpj:import` runs. Reports the load rate and projects
 * the real base (about 60 million establishments and as many companies).
 *
 *   npm run bench -- cnpj-import
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCnpjImporter } from '../src/modules/cnpj-base/cnpj-base.importer.ts';
import { createCnpjBaseRepository } from '../src/modules/cnpj-base/cnpj-base.repository.ts';
import { writeCnpjSample } from '../src/modules/cnpj-base/cnpj-base.sample.ts';
import { systemClock } from '../src/platform/clock/clock.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const FULL_ESTABLISHMENTS = 60_000_000;
const FULL_COMPANIES = 60_000_000;

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const rows = Number(process.env.BENCH_CNPJ_ROWS ?? (ctx.kind === 'postgres' ? 200_000 : 50_000));
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-bench-cnpj-'));
  try {
    const sampleStarted = performance.now();
    const sample = await writeCnpjSample(folder, { rows, seed: 42 });
    const sampleSeconds = (performance.now() - sampleStarted) / 1000;
    const bytes = fs.readdirSync(folder).reduce((sum, f) => sum + fs.statSync(path.join(folder, f)).size, 0);

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 100);
    const importer = createCnpjImporter({ handle: ctx.db, repo: createCnpjBaseRepository(ctx.db), clock: systemClock });
    const started = performance.now();
    const result = await importer.run({ folder, referenceMonth: '2025-11' }).finally(() => clearInterval(sampler));
    const seconds = (performance.now() - started) / 1000;

    const loaded = result.establishments + result.companies;
    const rowsPerSecond = Math.round(loaded / seconds);
    return {
      establishments: result.establishments,
      companies: result.companies,
      zipMegabytes: Math.round((bytes / 1024 / 1024) * 10) / 10,
      sampleSeconds: Math.round(sampleSeconds * 10) / 10,
      seconds: Math.round(seconds * 10) / 10,
      rowsPerSecond,
      establishmentsPerSecond: Math.round(result.establishments / seconds),
      peakRssMb: Math.round(peakRss / 1024 / 1024),
      // Linear: key builds grow a little faster than that, so read it as a lower bound.
      projectedFullImportMinutes: Math.round((FULL_ESTABLISHMENTS + FULL_COMPANIES) / rowsPerSecond / 60),
      sampleCompanies: sample.companies,
    };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
