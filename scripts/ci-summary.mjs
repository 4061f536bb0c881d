// Adds up the JSON reports of every test run in a folder and prints the closing line CI reads:
// "N passed, N failed". Exits non-zero when anything failed or nothing ran.
import fs from 'node:fs';
import path from 'node:path';

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
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

/** The files that took longest in each run: where CI's minutes go (kept under 30 in all). */
function printSlowest(folder, count = 12) {
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
