import { Text, Title } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

/** A sign-in step's heading and the dimmed line under it. */
export function StepHeading({
  title,
  subtitle,
  subtitleStyle,
}: {
  title: ReactNode;
  subtitle: ReactNode;
  subtitleStyle?: CSSProperties;
}) {
  return (
    <div>
      <Title order={2}>{title}</Title>
      <Text c="dimmed" mt={6} style={subtitleStyle}>
        {subtitle}
      </Text>
    </div>
  );
}
