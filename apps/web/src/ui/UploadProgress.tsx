import { Button, Progress, Stack, type StackProps, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A file on its way up: what is sent, how far it got, and the button that stops it. */
export function UploadProgress({
  label,
  progress,
  onCancel,
  cancelLabel,
  cancelTestId,
  progressTestId,
  ...stackProps
}: StackProps & {
  label: ReactNode;
  /** From 0 to 1. */
  progress: number;
  onCancel: () => void;
  cancelLabel: string;
  cancelTestId: string;
  progressTestId?: string;
}) {
  return (
    <Stack {...stackProps}>
      <Text size="sm">{label}</Text>
      <Progress value={progress * 100} animated striped data-testid={progressTestId} />
      <Button
        variant="default"
        size="xs"
        onClick={onCancel}
        style={{ alignSelf: 'flex-start' }}
        data-testid={cancelTestId}
      >
        {cancelLabel}
      </Button>
    </Stack>
  );
}
