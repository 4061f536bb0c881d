import { Card, type MantineSize, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One figure in a small card: what it counts (dimmed) over the number; any notes under it. */
export function StatCard({
  label,
  value,
  labelSize = 'sm',
  fz,
  padding = 'sm',
  valueTestId,
  children,
  'data-testid': testId,
}: {
  label: ReactNode;
  value: ReactNode;
  labelSize?: MantineSize;
  /** The figure's font size; the body's size when not given. */
  fz?: number;
  padding?: MantineSize;
  valueTestId?: string;
  /** Lines under the figure (what is reserved, the last change…). */
  children?: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <Card withBorder radius="md" padding={padding} data-testid={testId}>
      <Text size={labelSize} c="dimmed">
        {label}
      </Text>
      <Text fz={fz} fw={700} data-testid={valueTestId}>
        {value}
      </Text>
      {children}
    </Card>
  );
}
