import { Card, Loader, Text } from '@mantine/core';

/** A labelled number in a small card. */
export function Figure({
  label,
  value,
  testId,
  loading,
  strong,
}: {
  label: string;
  value: string;
  testId?: string;
  loading?: boolean;
  strong?: boolean;
}) {
  return (
    <Card withBorder radius="md" padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fz={strong ? 26 : 20} fw={700} data-testid={testId}>
        {loading ? <Loader size="xs" /> : value}
      </Text>
    </Card>
  );
}
