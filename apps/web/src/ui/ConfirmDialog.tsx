import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import { notify } from '../platform/notify';

export type ConfirmDialogOptions = {
  title?: ReactNode;
  /** The question; a text is shown as a small paragraph. */
  body: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  confirmTestId: string;
  cancelTestId?: string;
  centered?: boolean;
  withCloseButton?: boolean;
  onConfirm: () => unknown;
};

/**
 * "Are you sure?" before an action that cannot be taken back (delete, cancel, sign out): the
 * confirming button is red and closes the dialog as it starts the action.
 */
export function openConfirmDialog(o: ConfirmDialogOptions): void {
  // The buttons' data attributes are not among Mantine's typed button props: passed through as the elements' own.
  const confirmElement = { 'data-testid': o.confirmTestId };
  const cancelElement = o.cancelTestId ? { 'data-testid': o.cancelTestId } : {};
  modals.openConfirmModal({
    title: o.title,
    centered: o.centered,
    withCloseButton: o.withCloseButton,
    children: typeof o.body === 'string' ? <Text size="sm">{o.body}</Text> : o.body,
    labels: { confirm: o.confirmLabel, cancel: o.cancelLabel },
    confirmProps: { color: 'red', ...confirmElement },
    cancelProps: cancelElement,
    onConfirm: () => void o.onConfirm(),
  });
}

export type DeleteDialogOptions = Pick<ConfirmDialogOptions, 'title' | 'body' | 'confirmLabel' | 'cancelLabel'> & {
  /** Deletes the item (and whatever must stop with it). */
  remove: () => Promise<unknown>;
  /** The toast once it is gone. */
  doneText: string;
  /** The refusal in the user's language, as an error toast. */
  errorText: (err: unknown) => string;
  /** After the toast: the page's list read again. */
  refresh: () => Promise<unknown>;
};

/** Deleting one of the user's things (a list, an audio, a link): asked first, then said done or why not. */
export function openDeleteDialog(o: DeleteDialogOptions): void {
  openConfirmDialog({
    ...o,
    confirmTestId: 'confirm-delete',
    onConfirm: async () => {
      try {
        await o.remove();
        notify.success(o.doneText);
        await o.refresh();
      } catch (err) {
        notify.error(o.errorText(err));
      }
    },
  });
}
