// Entry of the sample worker thread (see sample.ts): loads the TypeScript worker through tsx, as
// import-worker.boot.mjs does for the import.
import { tsImport } from 'tsx/esm/api';

await tsImport('./sample-worker.ts', import.meta.url);
