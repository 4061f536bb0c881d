// Entry of the list-import worker thread: loads the TypeScript worker through tsx, so it runs
// the same way under `npm start` (tsx), `npm run worker` and the tests (vitest).
import { tsImport } from 'tsx/esm/api';

await tsImport('./import-worker.ts', import.meta.url);
