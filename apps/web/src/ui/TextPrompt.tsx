import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Stack, Textarea, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { DialogButtons } from './DialogButtons';

export type TextPromptOptions = {
  title: ReactNode;
  label?: string;
  description?: string;
  initial?: string;
  maxLength: number;
  /** A reason (several lines) rather than a name. */
  multiline?: boolean;
  confirmLabel: string;
  cancelLabel: string;
  confirmColor?: string;
  inputTestId: string;
  confirmTestId?: string;
  /** Shown when the text is left empty (nothing is sent). */
  requiredText?: string;
  /** Sends the text; the dialog closes only once it succeeded. */
  submit: (value: string) => Promise<unknown>;
  /** The failure in the user's language (the feature's translator over the one catalogue). */
  errorText: (err: unknown) => string;
};

/**
 * A dialog asking for one text (a new name, a reason to disable). On a refusal it stays open with
 * what was typed and says why inside it, so nothing has to be typed again (issue 21).
 */
export function openTextPrompt(options: TextPromptOptions): string {
  const id: string = modals.open({
    title: options.title,
    children: <TextPrompt {...options} onDone={() => modals.close(id)} />,
  });
  return id;
}

function TextPrompt({ onDone, ...o }: TextPromptOptions & { onDone: () => void }) {
  // An empty text is refused before sending when the caller says so; the message stays until the next try.
  const schema = useMemo(
    () => z.object({ value: o.requiredText ? z.string().trim().min(1, o.requiredText) : z.string() }),
    [o.requiredText],
  );
  const form = useForm<{ value: string }>({
    resolver: zodResolver(schema),
    reValidateMode: 'onSubmit',
    defaultValues: { value: o.initial ?? '' },
  });
  const send = useMutation({ mutationFn: (value: string) => o.submit(value), onSuccess: onDone });
  const error = form.formState.errors.value?.message ?? (send.error ? o.errorText(send.error) : null);
  // The text as typed (not trimmed) is what is sent.
  const submit = form.handleSubmit(() => {
    if (!send.isPending) send.mutate(form.getValues('value'));
  });

  const field = {
    'data-autofocus': true,
    label: o.label,
    description: o.description,
    maxLength: o.maxLength,
    'data-testid': o.inputTestId,
    ...form.register('value'),
  };
  return (
    <form onSubmit={(e) => void submit(e)}>
      <Stack gap="md">
        {o.multiline ? <Textarea {...field} autosize minRows={2} /> : <TextInput {...field} />}
        {error && (
          <Alert color="red" role="alert" data-testid="prompt-error">
            {error}
          </Alert>
        )}
        <DialogButtons
          cancelLabel={o.cancelLabel}
          onCancel={onDone}
          cancelDisabled={send.isPending}
          confirmLabel={o.confirmLabel}
          confirmTestId={o.confirmTestId}
          confirmColor={o.confirmColor}
          pending={send.isPending}
        />
      </Stack>
    </form>
  );
}
