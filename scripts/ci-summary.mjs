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
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
