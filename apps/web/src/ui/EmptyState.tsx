import { Center, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * What a page shows instead of an empty table: an icon, what belongs here, and the action that
 * adds the first one.
 */
export function EmptyState({
  icon,
  title,
  body,
  note,
  action,
  'data-testid': testId,
}: {
  icon: ReactNode;
  title: string;
  body: string;
  /** A smaller line under the body (limits, formats). */
  note?: string;
  /** The button that adds the first item. */
  action?: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <Center py={60}>
      <Stack align="center" gap="xs" maw={480} ta="center" data-testid={testId}>
        <ThemeIcon size={56} radius="xl" variant="light">
          {icon}
        </ThemeIcon>
        <Text fw={600}>{title}</Text>
        <Text size="sm" c="dimmed">
          {body}
        </Text>
        {note && (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        )}
        {action && <Center mt="sm">{action}</Center>}
      </Stack>
    </Center>
  );
}
