/**
 * A synthetic CNPJ base in exactly the Receita's layout (`npm run cnpj:sample`, tests, benches):
 * `Estabelecimentos0..9.zip`, `Empresas0..9.zip`, `Municipios.zip`, one latin1 file in each, no
 * header, every field quoted, `;`-separated. Company i goes to file i mod 10 with all its
 * establishments (a matriz, and a filial for about one in five), as the Receita splits by básico.
 * Written with the streaming zip writer: any size, little memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createZipFile, type ZipEntryWriter } from '../../platform/archive/zip-writer.ts';
import {
  companyFields,
  csvLine,
  establishment,
  rowRandom,
  SAMPLE_CITIES,
  type SampleEstablishment,
} from './cnpj-base.sample-data.ts';

export type { SampleEstablishment } from './cnpj-base.sample-data.ts';

export type CnpjSampleOptions = {
  /** Establishments (default 10,000). */
  rows?: number;
  seed?: number;
  /** How many Estabelecimentos/Empresas files (default 10, as the Receita publishes). */
  files?: number;
};

export type CnpjSampleResult = {
  folder: string;
  establishments: number;
  companies: number;
  cities: number;
  /** Establishments to check after an import: the fixed cases (companies 0–3) and a spread of others. */
  known: SampleEstablishment[];
};

const WRITE_CHUNK = 256 * 1024;
const FILE_STAMP = 'K3241.K03200Y';

/** How many establishments each company has (1, or 2 for about one in five), adding up to `rows`. */
function establishmentsPerCompany(seed: number, rows: number): Uint8Array {
  const counts: number[] = [];
  let total = 0;
  for (let i = 0; total < rows; i++) {
    const n = Math.min(rowRandom(seed, i, 2)() < 0.2 ? 2 : 1, rows - total);
    counts.push(n);
    total += n;
  }
  return Uint8Array.from(counts);
}

/** Latin1 text into a zip entry, in chunks of about 256 KB. */
function latin1Writer(entry: ZipEntryWriter) {
  let text = '';
  return {
    async add(line: string) {
      text += line;
      if (text.length >= WRITE_CHUNK) {
        await entry.write(Buffer.from(text, 'latin1'));
        text = '';
      }
    },
    async end() {
      if (text.length > 0) await entry.write(Buffer.from(text, 'latin1'));
      await entry.end();
    },
  };
}

async function writeZip(
  file: string,
  entryName: string,
  lines: (add: (line: string) => Promise<void>) => Promise<void>,
) {
  const zip = createZipFile(file);
  const writer = latin1Writer(zip.entry(entryName));
  await lines(writer.add);
  await writer.end();
  await zip.close();
}

export async function writeCnpjSample(folder: string, options: CnpjSampleOptions = {}): Promise<CnpjSampleResult> {
  const rows = options.rows ?? 10_000;
  const seed = options.seed ?? 1;
  const fileCount = options.files ?? 10;
  fs.mkdirSync(folder, { recursive: true });
  const perCompany = establishmentsPerCompany(seed, rows);
  const companies = perCompany.length;
  const known: SampleEstablishment[] = [];
  const knownEvery = Math.max(1, Math.floor(companies / 40));

  await writeZip(path.join(folder, 'Municipios.zip'), 'F.K03200$Z.D51108.MUNICCSV', async (add) => {
    for (const city of SAMPLE_CITIES) await add(csvLine([city.code, city.name]));
  });
  for (let k = 0; k < fileCount; k++) {
    await writeZip(path.join(folder, `Empresas${k}.zip`), `${FILE_STAMP}${k}.D51108.EMPRECSV`, async (add) => {
      for (let i = k; i < companies; i += fileCount) await add(csvLine(companyFields(seed, i)));
    });
    await writeZip(path.join(folder, `Estabelecimentos${k}.zip`), `${FILE_STAMP}${k}.D51108.ESTABELE`, async (add) => {
      for (let i = k; i < companies; i += fileCount) {
        for (let ordem = 1; ordem <= perCompany[i]!; ordem++) {
          const { fields, expected } = establishment(seed, i, ordem);
          if (i < 4 || i % knownEvery === 0) known.push(expected);
          await add(csvLine(fields));
        }
      }
    });
  }
  return { folder, establishments: rows, companies, cities: SAMPLE_CITIES.length, known };
}
