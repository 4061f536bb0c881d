// Adds up the JSON reports of every test run in a folder and prints the closing line CI reads:
// "N passed, N failed". Exits non-zero when anything failed or nothing ran.
import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters as strip } from 'node:util';

const dir = process.argv[2] ?? '.tmp/ci';
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  if ('numPassedTests' in report) {
    // Vitest
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  } else if (report.stats) {
    // Playwright
    passed += report.stats.expected;
    failed += report.stats.unexpected + report.stats.flaky;
    skipped += report.stats.skipped;
    console.log(`${file}: ${report.stats.expected} passed, ${report.stats.unexpected + report.stats.flaky} failed`);
  }
}
printSlowest(dir);
printSteps(dir);
printFailures(dir);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

/** The files that took longest in each run: where CI's minutes go (kept under 30 in all). */
function printSlowest(folder, count = 8) {
  for (const file of fs.readdirSync(folder).filter((f) => f.endsWith('.json'))) {
    const report = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
    const times = [];
    if ('testResults' in report) {
      for (const r of report.testResults) times.push([r.endTime - r.startTime, path.relative(process.cwd(), r.name)]);
    } else if (report.suites) {
      for (const suite of report.suites) {
        let ms = 0;
        const walk = (s) => {
          for (const spec of s.specs ?? []) for (const t of spec.tests) for (const r of t.results) ms += r.duration;
          for (const child of s.suites ?? []) walk(child);
        };
        walk(suite);
        times.push([ms, suite.file]);
      }
    }
    times.sort((a, b) => b[0] - a[0]);
    const total = times.reduce((sum, [ms]) => sum + ms, 0);
    console.log(`\n${file}: slowest files (${Math.round(total / 1000)} s summed over ${times.length} files)`);
    for (const [ms, name] of times.slice(0, count))
      console.log(`  ${String(Math.round(ms / 1000)).padStart(5)} s  ${name}`);
  }
}

/** How long each step of .ci/run took (it appends "<seconds since start> <step>" to steps.txt). */
function printSteps(folder) {
  const file = path.join(folder, 'steps.txt');
  if (!fs.existsSync(file)) return;
  const lines = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  console.log('\nsteps (seconds each):');
  for (const [i, [at, ...name]] of lines.entries()) {
    const next = lines[i + 1]?.[0];
    if (next !== undefined) console.log(`  ${String(Number(next) - Number(at)).padStart(5)} s  ${name.join(' ')}`);
  }
}

/**
 * Each failed test, last, where the tail of CI's log (all that is read of it) still shows it: its
 * name, the first lines of its error and, for a browser test, what the page showed (its
 * accessibility snapshot, error-context.md) — CI keeps no other artifact.
 */
function printFailures(folder) {
  const failures = [];
  for (const file of fs.readdirSync(folder).filter((f) => f.endsWith('.json'))) {
    const report = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
    if ('testResults' in report) {
      for (const r of report.testResults)
        for (const a of r.assertionResults ?? [])
          if (a.status === 'failed')
            failures.push({
              run: file,
              name: `${path.relative(process.cwd(), r.name)} › ${a.fullName}`,
              error: a.failureMessages?.join('\n') ?? '',
            });
    } else if (report.suites) {
      const walk = (s) => {
        for (const spec of s.specs ?? [])
          for (const t of spec.tests)
            for (const r of t.results)
              if (r.status !== 'passed' && r.status !== 'skipped') {
                const context = r.attachments?.find((a) => a.name === 'error-context')?.path;
                failures.push({
                  run: file,
                  name: `${spec.file}:${spec.line} › ${spec.title}`,
                  error: r.error?.message ?? r.status,
                  page: context && fs.existsSync(context) ? fs.readFileSync(context, 'utf8') : '',
                });
              }
        for (const child of s.suites ?? []) walk(child);
      };
      for (const suite of report.suites) walk(suite);
    }
  }
  if (failures.length === 0) return;
  console.log(`\nfailed (${failures.length}):`);
  for (const f of failures.slice(0, 10)) {
    console.log(`\n✘ ${f.run}: ${f.name}`);
    console.log(
      strip(f.error)
        .split('\n')
        .slice(0, 8)
        .map((line) => `    ${line}`)
        .join('\n'),
    );
    if (f.page)
      console.log(
        strip(f.page)
          .split('\n')
          .slice(0, 30)
          .map((line) => `    | ${line}`)
          .join('\n'),
      );
  }
}
