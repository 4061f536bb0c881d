import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** Why a dialog's action was refused, at its top; nothing while there is no refusal. */
export function ErrorAlert({
  error,
  'data-testid': testId,
}: {
  error: string | null | undefined;
  'data-testid': string;
}) {
  if (!error) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid={testId}>
      {error}
    </Alert>
  );
}
