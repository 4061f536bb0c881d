import type { ReactNode } from 'react';
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
