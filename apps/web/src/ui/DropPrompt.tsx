import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a drop area says: the invitation and, under it, the formats and limits. */
export function DropPrompt({ title, hint, size }: { title: ReactNode; hint: ReactNode; size?: 'lg' }) {
  return (
    <Stack gap={4}>
      <Text size={size} fw={600}>
        {title}
      </Text>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
    </Stack>
  );
}
