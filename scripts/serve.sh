#!/bin/sh
# Runs the compiled server (or, with an argument, another compiled entry such as worker.mjs) with
# the runtime flags of ADR 015: `npm start`, `npm run worker` and the e2e server all start here.
#   MALLOC_ARENA_MAX=2        glibc keeps two malloc arenas, not one per thread (~tens of MB idle)
#   --max-semi-space-size=4   a 4 MB young generation: less resident, same throughput (2 cost 17%)
#   --no-liftoff              PGlite's WASM compiled once by the optimising compiler: ~35 MB less
#                             and full-speed statements from the first, ~2 s more at start
MALLOC_ARENA_MAX=2 exec node --max-semi-space-size=4 --no-liftoff "apps/server/dist/${1:-main.mjs}"
