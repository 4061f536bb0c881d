// Merges Stryker reports of part of the core into the committed incremental report:
//   node scripts/mutation-merge.mjs <part.json>... [--into reports/stryker-incremental.json]
// A file too slow to mutate in one run on 2 cores is run in pieces (`--mutate <file>:<lines>`,
// each with its own `--incrementalFile`); each piece's results are then taken into the main
// report, replacing that file's earlier results. Test ids are per run, so every piece's tests and
// the ids its mutants name are renumbered with a prefix of their own. The mutants of a file are
// those of the pieces given for it (a piece's source is the file as it was mutated).
import fs from 'node:fs';

const args = process.argv.slice(2);
const intoAt = args.indexOf('--into');
const into = intoAt >= 0 ? args[intoAt + 1] : 'reports/stryker-incremental.json';
const parts = args.filter((arg, i) => arg !== '--into' && i !== intoAt + 1);
if (parts.length === 0) {
  console.error('usage: node scripts/mutation-merge.mjs <part.json>... [--into <report.json>]');
  process.exit(2);
}

const report = JSON.parse(fs.readFileSync(into, 'utf8'));
/** @type {Map<string, object[]>} each file's mutants, from every piece given for it */
const mutantsOf = new Map();
const sourceOf = new Map();

parts.forEach((partPath, n) => {
  const part = JSON.parse(fs.readFileSync(partPath, 'utf8'));
  const prefix = `m${n}-${Date.now().toString(36)}-`;
  const renumber = (/** @type {string[] | undefined} */ ids) => ids?.map((id) => prefix + id);
  for (const [path, file] of Object.entries(part.files)) {
    const mutants = file.mutants.map((m) => ({
      ...m,
      id: prefix + m.id,
      coveredBy: renumber(m.coveredBy),
      killedBy: renumber(m.killedBy),
    }));
    mutantsOf.set(path, [...(mutantsOf.get(path) ?? []), ...mutants]);
    sourceOf.set(path, file);
  }
  for (const [path, testFile] of Object.entries(part.testFiles ?? {})) {
    const tests = testFile.tests.map((t) => ({ ...t, id: prefix + t.id }));
    const kept = report.testFiles[path]?.tests ?? [];
    report.testFiles[path] = { ...testFile, tests: [...kept, ...tests] };
  }
});

for (const [path, mutants] of mutantsOf) {
  const { language, source } = sourceOf.get(path);
  // Pieces by line range may share a mutant on their boundary: the last result of each place wins.
  const byPlace = new Map(
    mutants.map((m) => [`${m.location.start.line}:${m.location.start.column}:${m.mutatorName}:${m.replacement}`, m]),
  );
  report.files[path] = { language, source, mutants: [...byPlace.values()] };
  console.log(`${path}: ${byPlace.size} mutants`);
}
fs.writeFileSync(into, `${JSON.stringify(report)}\n`);
