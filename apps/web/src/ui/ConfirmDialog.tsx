import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
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

/** A thing of the user's that can be deleted or renamed: what the dialogs call it. */
type Named = { name: string };

export type DeleteDialogOptions<T extends Named> = {
  /**
   * The feature's text namespace: `<ns>.delete.title`, `.body` (with `{{name}}`), `.confirm`,
   * `.done` and `<ns>.cancel`.
   */
  ns: string;
  /** Deletes the item (and whatever must stop with it). */
  remove: (item: T) => Promise<unknown>;
  /** The refusal in the user's language, as an error toast. */
  errorText: (err: unknown) => string;
  /** The page's list, read again once the item is gone. */
  invalidate: QueryKey;
  /** A title other than `<ns>.delete.title` for this item (e.g. cancelling an import). */
  title?: (item: T) => string;
};

/**
 * Deleting one of the user's things (a list, an audio, a link): asked first, then deleted as a
 * mutation (pending while it runs), said done and the list read again, or said why not.
 */
export function useDeleteDialog<T extends Named>(o: DeleteDialogOptions<T>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const deletion = useMutation({
    mutationFn: o.remove,
    onSuccess: () => {
      notify.success(t(`${o.ns}.delete.done`));
      return queryClient.invalidateQueries({ queryKey: o.invalidate });
    },
    onError: (err) => notify.error(o.errorText(err)),
  });
  const ask = (item: T) =>
    openConfirmDialog({
      title: o.title?.(item) ?? t(`${o.ns}.delete.title`),
      body: t(`${o.ns}.delete.body`, { name: item.name }),
      confirmLabel: t(`${o.ns}.delete.confirm`),
      cancelLabel: t(`${o.ns}.cancel`),
      confirmTestId: 'confirm-delete',
      onConfirm: () => deletion.mutate(item),
    });
  return { ask, pending: deletion.isPending };
}
