import { Button } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { TestSendDialog } from './TestSendDialog';

/** The button that opens the test send (any channel, to the user's own phone by default), with its dialog. */
export function TestSendButton({
  label,
  iconSize,
  'data-testid': testId,
}: {
  label: string;
  iconSize: number;
  'data-testid': string;
}) {
  const [testing, setTesting] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconSend size={iconSize} />}
        onClick={() => setTesting(true)}
        data-testid={testId}
      >
        {label}
      </Button>
      <TestSendDialog opened={testing} onClose={() => setTesting(false)} />
    </>
  );
}
