import { SUCCESS_TOAST_MS } from '@ecoa/shared';
import { notifications } from '@mantine/notifications';

type Tone = 'success' | 'error' | 'info';
const LOOK: Record<Tone, { color: string; autoClose: number }> = {
  success: { color: 'teal', autoClose: SUCCESS_TOAST_MS },
  error: { color: 'red', autoClose: 6000 },
  info: { color: 'blue', autoClose: SUCCESS_TOAST_MS },
};

function show(tone: Tone, message: string) {
  // A data attribute is not among the notification's typed props: passed through as the element's own.
  const element = { 'data-testid': `toast-${tone}` };
  notifications.show({ ...LOOK[tone], message, ...element });
}

/** Toasts (top-right, see App): one look for every feature's messages. */
export const notify = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
};
