import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A page's title, the line under it, and its main actions on the right (below it on a narrow screen). */
export function PageHeader({
  title,
  subtitle,
  actions,
  titleTestId,
  subtitleTestId,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  titleTestId?: string;
  subtitleTestId?: string;
}) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm">
      <Stack gap={4}>
        <Title order={2} data-testid={titleTestId}>
          {title}
        </Title>
        {subtitle && (
          <Text size="sm" c="dimmed" data-testid={subtitleTestId}>
            {subtitle}
          </Text>
        )}
      </Stack>
      {actions}
    </Group>
  );
}
