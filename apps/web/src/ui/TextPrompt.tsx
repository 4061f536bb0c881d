import { Alert, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { type FormEvent, type ReactNode, useState } from 'react';

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
  const [value, setValue] = useState(o.initial ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (o.requiredText && !value.trim()) {
      setError(o.requiredText);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await o.submit(value);
      onDone();
    } catch (err) {
      setError(o.errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const field = {
    'data-autofocus': true,
    label: o.label,
    description: o.description,
    value,
    maxLength: o.maxLength,
    onChange: (e: { currentTarget: { value: string } }) => setValue(e.currentTarget.value),
    'data-testid': o.inputTestId,
  };
  return (
    <form onSubmit={(e) => void send(e)}>
      <Stack gap="md">
        {o.multiline ? <Textarea {...field} autosize minRows={2} /> : <TextInput {...field} />}
        {error && (
          <Alert color="red" role="alert" data-testid="prompt-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={busy}>
            {o.cancelLabel}
          </Button>
          <Button type="submit" color={o.confirmColor} loading={busy} data-testid={o.confirmTestId}>
            {o.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
