import { Button, type ButtonProps } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** "+ New …": the button that adds one more of what a page lists (in its header and its empty state). */
export function AddButton({
  children,
  ...props
}: Omit<ButtonProps, 'leftSection'> & { children: ReactNode; onClick: () => void; 'data-testid'?: string }) {
  return (
    <Button leftSection={<IconPlus size={16} />} {...props}>
      {children}
    </Button>
  );
}
