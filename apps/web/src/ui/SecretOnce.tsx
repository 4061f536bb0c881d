import { Alert, Button, Code, CopyButton, Group, Paper, Stack } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * A secret the server shows this once (an API key, a webhook's signing secret): the warning, the
 * value with a copy button that says when it copied, what else to know, and the button that
 * closes it. The texts and test ids are the caller's.
 */
export function SecretOnce({
  value,
  title,
  warning,
  children,
  labels,
  onDone,
  testIds,
}: {
  value: string;
  title?: string;
  warning: string;
  /** Shown under the value (how to use it). */
  children?: ReactNode;
  labels: { copy: string; copied: string; done: string };
  onDone: () => void;
  testIds: { root: string; value: string; copy: string; done: string };
}) {
  return (
    <Stack gap="md" data-testid={testIds.root}>
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={title}>
        {warning}
      </Alert>
      <Paper withBorder radius="md" p="sm">
        <Group gap="sm" wrap="nowrap" justify="space-between">
          <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid={testIds.value}>
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button
                variant={copied ? 'light' : 'filled'}
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                onClick={copy}
                data-testid={testIds.copy}
              >
                {copied ? labels.copied : labels.copy}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Paper>
      {children}
      <Group justify="flex-end">
        <Button onClick={onDone} data-testid={testIds.done}>
          {labels.done}
        </Button>
      </Group>
    </Stack>
  );
}
