// Creates a new PGlite data directory (initdb) in a short-lived child process: initdb leaves
// ~450 MB of WASM memory behind, which neither a process nor (in practice) a worker thread gives
// back to the system; a child process that exits does. Usage: node pglite-initdb.child.mjs <dir>
import { PGlite } from '@electric-sql/pglite';

const db = await PGlite.create(process.argv[2]);
await db.close();
