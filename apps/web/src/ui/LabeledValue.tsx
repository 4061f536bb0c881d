import { type MantineSize, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A small dimmed label over its value (a count, a date, a month). */
export function LabeledValue({
  label,
  value,
  size,
  fw = 700,
  testId,
}: {
  label: ReactNode;
  value: ReactNode;
  /** The value's size; the body's when not given. */
  size?: MantineSize;
  fw?: number;
  testId?: string;
}) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size={size} fw={fw} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
