import { Button, Group, type MantineSpacing } from '@mantine/core';

/**
 * A dialog's closing row, on the right: the grey way out, then the action the dialog is for,
 * spinning while it runs. Without `onConfirm` the action submits the dialog's form.
 */
export function DialogButtons({
  cancelLabel,
  onCancel,
  cancelTestId,
  cancelDisabled,
  confirmLabel,
  onConfirm,
  confirmTestId,
  confirmColor,
  pending,
  disabled,
  mt,
}: {
  cancelLabel: string;
  onCancel: () => void;
  cancelTestId?: string;
  cancelDisabled?: boolean;
  confirmLabel: string;
  onConfirm?: () => void;
  confirmTestId?: string;
  confirmColor?: string;
  /** The action is running. */
  pending?: boolean;
  /** The action cannot be taken yet. */
  disabled?: boolean;
  mt?: MantineSpacing;
}) {
  return (
    <Group justify="flex-end" mt={mt}>
      <Button variant="default" onClick={onCancel} disabled={cancelDisabled} data-testid={cancelTestId}>
        {cancelLabel}
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        onClick={onConfirm}
        color={confirmColor}
        loading={pending}
        disabled={disabled}
        data-testid={confirmTestId}
      >
        {confirmLabel}
      </Button>
    </Group>
  );
}
