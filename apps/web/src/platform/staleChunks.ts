/** When the last reload for a missing chunk happened (sessionStorage: this tab only). */
const RELOADED_AT_KEY = 'stale-chunk-reload-at';
const AT_MOST_EVERY_MS = 60_000;

/**
 * Pages are lazy chunks with hashed names, and a release replaces them. A tab opened before the
 * release still asks for the old names, which are gone (404): Vite reports it as
 * `vite:preloadError`, and a reload fetches the new index.html and its chunks. Only once a
 * minute, so a real outage shows its error instead of reloading forever.
 */
export function reloadOnStaleChunks(win: Window = window): void {
  win.addEventListener('vite:preloadError', () => {
    let last = 0;
    try {
      last = Number(win.sessionStorage.getItem(RELOADED_AT_KEY) ?? 0);
      if (Date.now() - last < AT_MOST_EVERY_MS) return;
      win.sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
    } catch {
      return; // no storage to remember the reload by: never risk a loop
    }
    win.location.reload();
  });
}
