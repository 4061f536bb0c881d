import { useMemo, useRef } from 'react';

/**
 * A new random key (a v4 UUID). `crypto.randomUUID` exists only in secure contexts (HTTPS or
 * localhost); a server reached over plain HTTP by its LAN address still has `getRandomValues`.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The header the server reads (ADR 002): a retry with the same key is applied once. */
export const idempotencyHeader = (key: string) => ({ 'Idempotency-Key': key });

/**
 * One `Idempotency-Key` per form submission of a money operation. `keyFor(values)` makes a key
 * when a submission is sent, and gives the same key again when that submission is sent again
 * with the same values (a retry after an error: the first answer may have been lost after the
 * server applied it, so the server must see the same key and apply it once). Other values, or
 * `done()` after a success, start a new submission with a new key.
 */
export function useSubmissionKey() {
  const keys = useSubmissionKeys();
  return useMemo(
    () => ({
      keyFor: (values: unknown): string => keys.keyFor('', values),
      done: (): void => keys.done(''),
    }),
    [keys],
  );
}

/**
 * `useSubmissionKey` for a form of several independent rows (the seven conversion rows): one
 * submission key per row, so a row sent while another is in flight, or succeeding, never takes
 * or clears the other row's key — each row's retry keeps its own protection.
 */
export function useSubmissionKeys() {
  const current = useRef(new Map<string, { fingerprint: string; key: string }>());
  return useMemo(
    () => ({
      keyFor(row: string, values: unknown): string {
        const fingerprint = JSON.stringify(values);
        const held = current.current.get(row);
        if (held?.fingerprint === fingerprint) return held.key;
        const key = newIdempotencyKey();
        current.current.set(row, { fingerprint, key });
        return key;
      },
      done(row: string): void {
        current.current.delete(row);
      },
    }),
    [],
  );
}
