import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

/** Which page of a server list is shown, and how many items a page holds. */
export function usePaging(pageSize: number) {
  const [page, setPage] = useState(1);
  return { page, setPage, pageSize };
}

export type Paging = ReturnType<typeof usePaging>;

/**
 * A paged list's page, search box and filters: the typed text is searched once typing pauses
 * (one request per pause, not per key), and any new search or filter shows the first page.
 */
export function usePagedSearch(pageSize: number, debounceMs = 300) {
  const paging = usePaging(pageSize);
  const { page, setPage } = paging;
  const [search, setSearchText] = useState('');
  const [debounced] = useDebouncedValue(search, debounceMs);
  /** A filter's setter that also goes back to page one. */
  const refilter =
    <T>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  return { paging, page, setPage, search, setSearch: refilter(setSearchText), debounced, refilter };
}
