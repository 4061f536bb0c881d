import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** "← Voltar" under a sign-in step: back to the step before, quieter than the step's own button. */
export function BackButton({
  onClick,
  children,
  'data-testid': testId,
}: {
  onClick: () => void;
  children: ReactNode;
  'data-testid': string;
}) {
  return (
    <Button
      variant="subtle"
      color="gray"
      leftSection={<IconArrowLeft size={16} />}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
