/**
 * Many waiting things stopped by the same signal, with one `abort` listener per signal instead of
 * one per thing. The SMPP adapter's submits all carry their batch's stop signal: adding and
 * removing an EventTarget listener for every message was about 3 % of Ecoa's CPU per message in a
 * campaign's profile (`npm run bench -- campaign`).
 */
export class AbortGroups<T> {
  private readonly groups = new Map<AbortSignal, { items: Set<T>; listener: () => void }>();

  /** `onAbort` is called once for each thing still in the group when its signal aborts. */
  constructor(private readonly onAbort: (item: T) => void) {}

  /** Watches `item` until `delete`; nothing without a signal, or with one already aborted (it never fires). */
  add(signal: AbortSignal | undefined, item: T): void {
    if (!signal) return;
    let group = this.groups.get(signal);
    if (!group) {
      const items = new Set<T>();
      const listener = () => {
        // Each leaves the group before its callback, which may stop watching others of it.
        for (const each of items) {
          items.delete(each);
          this.onAbort(each);
        }
        this.groups.delete(signal);
      };
      group = { items, listener };
      this.groups.set(signal, group);
      signal.addEventListener('abort', listener, { once: true });
    }
    group.items.add(item);
  }

  /** Stops watching `item`; the signal's listener goes with the last of its group. */
  delete(signal: AbortSignal | undefined, item: T): void {
    const group = signal && this.groups.get(signal);
    if (!group) return;
    group.items.delete(item);
    if (group.items.size > 0) return;
    this.groups.delete(signal);
    signal.removeEventListener('abort', group.listener);
  }

  /** How many signals are watched (for tests). */
  get signals(): number {
    return this.groups.size;
  }
}
