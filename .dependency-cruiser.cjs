/**
 * The module boundaries of the server and the shared package (docs/decisions/017-module-boundaries.md),
 * checked by `npm run check` (`npm run boundaries`). Zero violations is the rule: a new import that
 * crosses a boundary fails the check, so fix the import (or move the code) rather than the rule.
 * There is no waiver: every module, checkout included, meets the others at their index.
 *
 * Parsed with swc (the project's TypeScript 7 has no compiler API dependency-cruiser can use), which
 * reads every import as written, `import type` included: a type is part of a module's surface too.
 */

const modules = '^apps/server/src/modules/';
/**
 * Tests may reach a module's insides (a repository to seed rows, a schema to read them back): they
 * test the module, they are not another module depending on it. So `*.test.ts`, the test helpers
 * (`*.test-support.ts`) and `apps/server/test/`
 * are exempt from the index rule (and only from that one).
 */
const tests = '\\.(test|test-support)\\.ts$|^apps/server/test/';

module.exports = {
  forbidden: [
    {
      name: 'module-through-index',
      severity: 'error',
      comment:
        'A server module uses another only through its public surface, modules/<feature>/index.ts: ' +
        'repositories, schemas, routes and helpers are private. The composition root ' +
        '(modules/index.ts) is exempt: wiring each module from its private parts is its one job, ' +
        'and it is the only place that does it. The processes around it (app.ts, server.ts, ' +
        'worker.ts, simulators.ts, the cnpj-* tools) are composition roots of the same kind: they ' +
        'start the carriers, simulators and importers they run, so they are not held to this rule.',
      from: { path: `${modules}([^/]+)/`, pathNot: tests },
      to: {
        path: `${modules}[^/]+/`,
        pathNot: [`${modules}$1/`, `${modules}[^/]+/index\\.ts$`],
      },
    },
    {
      name: 'platform-not-modules',
      severity: 'error',
      comment:
        'platform/ is what every feature stands on (database, HTTP, jobs, clock, text readers): ' +
        'it never imports a feature, or the features could not be moved or tested apart.',
      from: { path: '^apps/server/src/platform/' },
      to: { path: modules },
    },
    {
      name: 'shared-imports-no-app',
      severity: 'error',
      comment: 'packages/shared is read by the server and the web alike: it imports neither.',
      from: { path: '^packages/shared/' },
      to: { path: '^apps/' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'No two files import each other, directly or round a loop: a cycle makes the load order ' +
        'matter and the pieces impossible to understand (or test) one at a time.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|(^|/)dist/' },
    parser: 'swc',
    tsConfig: { fileName: 'apps/server/tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
