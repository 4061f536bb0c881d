import { Button, type ButtonProps, Group } from '@mantine/core';

/** The part of a react-query infinite result the button reads. */
type PagedQuery = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };

/** "Load more" under a list read page by page: nothing once the last page is in. */
export function MoreButton({
  query,
  label,
  size,
  'data-testid': testId,
}: {
  query: PagedQuery;
  label: string;
  size?: ButtonProps['size'];
  'data-testid'?: string;
}) {
  if (!query.hasNextPage) return null;
  return (
    <Group justify="center">
      <Button
        variant="default"
        size={size}
        loading={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
        data-testid={testId}
      >
        {label}
      </Button>
    </Group>
  );
}
