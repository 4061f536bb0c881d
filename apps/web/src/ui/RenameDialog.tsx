import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { openTextPrompt } from './TextPrompt';

export type RenameDialogOptions = {
  title: ReactNode;
  label?: string;
  /** The current name, selected for editing. */
  name: string;
  maxLength: number;
  confirmLabel: string;
  cancelLabel: string;
  /** Saves the new name; the dialog closes only once it succeeded. */
  rename: (name: string) => Promise<unknown>;
  /** The refusal in the user's language, shown inside the dialog with the typed name kept. */
  errorText: (err: unknown) => string;
};

/** Renaming one of the user's things (a list, an audio): the one name dialog, with the same test ids everywhere. */
export function openRenameDialog(o: RenameDialogOptions): string {
  return openTextPrompt({
    title: o.title,
    label: o.label,
    initial: o.name,
    maxLength: o.maxLength,
    confirmLabel: o.confirmLabel,
    cancelLabel: o.cancelLabel,
    inputTestId: 'rename-input',
    confirmTestId: 'confirm-rename',
    submit: o.rename,
    errorText: o.errorText,
  });
}

/**
 * Renaming one of the user's things with `<ns>.rename.title`, `.label` (when the feature has one),
 * `.confirm` and `<ns>.cancel`: saved as a mutation, the dialog closing once the list is read again.
 */
export function useRenameDialog<T extends { name: string }>(o: {
  ns: string;
  maxLength: number;
  rename: (item: T, name: string) => Promise<unknown>;
  errorText: (err: unknown) => string;
  /** The page's list, read again once renamed. */
  invalidate: QueryKey;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const renaming = useMutation({
    mutationFn: ({ item, name }: { item: T; name: string }) => o.rename(item, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: o.invalidate }),
  });
  const labelKey = `${o.ns}.rename.label`;
  return (item: T) =>
    openRenameDialog({
      title: t(`${o.ns}.rename.title`),
      label: i18n.exists(labelKey) ? t(labelKey) : undefined,
      name: item.name,
      maxLength: o.maxLength,
      confirmLabel: t(`${o.ns}.rename.confirm`),
      cancelLabel: t(`${o.ns}.cancel`),
      rename: (name) => renaming.mutateAsync({ item, name }),
      errorText: o.errorText,
    });
}
