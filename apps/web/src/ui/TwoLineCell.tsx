import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A table cell's name in bold with a dimmed line under it (an address, a full name, a count). */
export function TwoLineCell({
  title,
  detail,
  detailSize = 'xs',
}: {
  title: ReactNode;
  detail: ReactNode;
  detailSize?: 'xs' | 'sm';
}) {
  return (
    <>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <Text size={detailSize} c="dimmed">
        {detail}
      </Text>
    </>
  );
}
