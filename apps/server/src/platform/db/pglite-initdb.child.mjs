// Creates a new PGlite data directory (initdb) in a short-lived worker thread. initdb's WASM
// memory is never given back inside a process: done here, it is freed when the thread exits.
import { workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const db = await PGlite.create(workerData.dir);
await db.close();
