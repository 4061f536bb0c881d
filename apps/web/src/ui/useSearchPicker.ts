import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, type QueryKey, useQueries, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';

/** How many items a picker shows at once: the newest, or the ones matching the typed text. */
export const PICKER_PAGE = 50;
/** The typed text waits this long before it is searched (one request per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 300;

/** A picker's query keys: a search's page, and one chosen item fetched by its id. */
export type PickerKeys = { search: (q: string) => QueryKey; one: (id: string) => QueryKey };

/**
 * A picker over one of the user's server lists (lists, audios, rotating links): the newest first,
 * or, once something is typed, the server's search over all of them, so item 101 and beyond can
 * be found. The chosen items stay known (`known`) whatever the search shows; one chosen before
 * (a draft reopened) and not seen yet is fetched by its id.
 */
export function useSearchPicker<T extends { id: string }>(options: {
  /** The feature's picker keys (e.g. `listsKeys.picker`): under its root key, so invalidating that refreshes the picker. */
  keys: PickerKeys;
  search: (q: string) => Promise<{ items: T[] }>;
  byId: (id: string) => Promise<T>;
  chosen: readonly string[];
  /** A Select puts the chosen option's label in its search box: that is not a search. */
  labelOf?: (item: T) => string;
  enabled?: boolean;
}) {
  const { keys, search, byId, chosen, labelOf, enabled = true } = options;
  const [typed, setTyped] = useState('');
  const known = useRef(new Map<string, T>()).current;
  const isChosenLabel = labelOf && chosen.some((id) => known.has(id) && labelOf(known.get(id)!) === typed);
  const [q] = useDebouncedValue(isChosenLabel ? '' : typed.trim(), SEARCH_DEBOUNCE_MS);
  const page = useQuery({
    queryKey: keys.search(q),
    queryFn: () => search(q),
    placeholderData: keepPreviousData,
    enabled,
  });
  for (const item of page.data?.items ?? []) known.set(item.id, item);
  const missing = chosen.filter((id) => !known.has(id));
  const fetched = useQueries({
    queries: missing.map((id) => ({ queryKey: keys.one(id), queryFn: () => byId(id), enabled })),
  });
  for (const one of fetched) if (one.data) known.set(one.data.id, one.data);

  const items = page.data?.items;
  /** The page's items, then the chosen ones it does not show. */
  const withChosen = items
    ? [...items, ...chosen.filter((id) => !items.some((i) => i.id === id) && known.has(id)).map((id) => known.get(id)!)]
    : undefined;
  return { typed, setTyped, searching: q !== '', page, items, withChosen, known };
}
