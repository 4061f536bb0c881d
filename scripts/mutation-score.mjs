// Prints the mutation score of every file in Stryker's incremental report (the committed
// reports/stryker-incremental.json, or the file given as the first argument) and the total:
//   node scripts/mutation-score.mjs [report.json] [--survivors] [--file <part of a path>]
// Score = (killed + timeout) / (killed + timeout + survived + no coverage), as Stryker counts it;
// ignored mutants (`// Stryker disable …`, static ones) and compile/runtime errors are not scored.
// `--survivors` also lists each survived or uncovered mutant: line:column, mutator, replacement.
// The incremental file keeps the last result of every mutant it has seen, including mutants of
// code that has changed since; a file not yet run shows only the mutants scored so far.
import fs from 'node:fs';

const args = process.argv.slice(2);
const showSurvivors = args.includes('--survivors');
const fileFilter = args.includes('--file') ? args[args.indexOf('--file') + 1] : undefined;
const reportPath =
  args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--file') ?? 'reports/stryker-incremental.json';

const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
const columns = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'Errors'];
const headers = ['killed', 'timeout', 'survived', 'no cov', 'ignored', 'errors', 'score'];

/** @param {{ status: string }[]} mutants */
function count(mutants) {
  const c = Object.fromEntries(columns.map((k) => [k, 0]));
  for (const { status } of mutants) {
    if (status === 'CompileError' || status === 'RuntimeError') c.Errors++;
    else if (status in c) c[status]++;
  }
  const detected = c.Killed + c.Timeout;
  const scored = detected + c.Survived + c.NoCoverage;
  return { ...c, scored, score: scored ? (100 * detected) / scored : Number.NaN };
}

/** @param {ReturnType<typeof count>} c */
function row(name, c) {
  const cells = columns.map((k) => String(c[k]).padStart(9));
  const score = Number.isNaN(c.score) ? '      n/a' : `${c.score.toFixed(1)}%`.padStart(9);
  return `${name.padEnd(44)}${cells.join('')}${score}`;
}

const files = Object.entries(report.files)
  .filter(([path]) => !fileFilter || path.includes(fileFilter))
  .sort(([a], [b]) => a.localeCompare(b));
console.log(`${'file'.padEnd(44)}${headers.map((h) => h.padStart(9)).join('')}`);
const all = [];
for (const [path, file] of files) {
  all.push(...file.mutants);
  console.log(row(path.replace(/^.*\//, ''), count(file.mutants)));
}
console.log(row('total', count(all)));

if (showSurvivors) {
  for (const [path, file] of files) {
    const left = file.mutants
      .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
      .sort(
        (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
      );
    if (!left.length) continue;
    console.log(`\n${path}`);
    for (const m of left) {
      const at = `${m.location.start.line}:${m.location.start.column}`;
      const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 70);
      console.log(`  ${at.padEnd(8)}${m.status.padEnd(11)}${m.mutatorName.padEnd(22)}${replacement}`);
    }
  }
}
