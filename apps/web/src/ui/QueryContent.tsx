import { Group, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadErrorAlert } from './LoadErrorAlert';

/** The part of a react-query result the switch reads. */
export type ContentQuery<T> = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
};

/**
 * A query's content in its four states: a small spinner while it loads, the reason and "try
 * again" when it failed, `empty` when `isEmpty` says there is nothing, else `children` with the
 * data. For a card or dialog whose whole body is one query.
 */
export function QueryContent<T>({
  query,
  fallbackKey,
  errorTestId,
  isEmpty,
  empty,
  children,
}: {
  query: ContentQuery<T>;
  /** What could not be loaded ("Não foi possível carregar …"). */
  fallbackKey: string;
  errorTestId?: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending)
    return (
      <Group justify="center" py="lg">
        <Loader size="sm" />
      </Group>
    );
  if (query.isError || query.data === undefined)
    return <LoadErrorAlert query={query} fallbackKey={fallbackKey} data-testid={errorTestId} />;
  if (isEmpty?.(query.data)) return empty;
  return children(query.data);
}
