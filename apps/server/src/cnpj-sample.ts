/**
 * `npm run cnpj:sample -- <folder> [rows] [--seed=N]`: writes a synthetic CNPJ base (clearly
 * fake companies) in exactly the Receita Federal's layout, for trying `npm run cnpj:import`.
 */
import { writeCnpjSample } from './modules/cnpj-base/cnpj-base.sample.ts';

const args = process.argv.slice(2);
const [folder, rowsText] = args.filter((a) => !a.startsWith('--'));
const seed = Number(args.find((a) => a.startsWith('--seed='))?.slice('--seed='.length) ?? 1);
const rows = rowsText === undefined ? 10_000 : Number(rowsText);
if (!folder || !Number.isInteger(rows) || rows < 1 || !Number.isInteger(seed)) {
  process.stderr.write('usage: npm run cnpj:sample -- <folder> [rows (default 10000)] [--seed=N]\n');
  process.exit(2);
}
const started = Date.now();
const result = await writeCnpjSample(folder, { rows, seed });
process.stdout.write(
  `${folder}: ${result.establishments.toLocaleString('en-US')} establishments, ` +
    `${result.companies.toLocaleString('en-US')} companies, ${result.cities} cities ` +
    `(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
);
