import { SUCCESS_TOAST_MS } from '@ecoa/shared';
import { notifications } from '@mantine/notifications';

/** Toasts (top-right, see App): one look for every message of the auth flow. */
export const notify = {
  success: (message: string) =>
    notifications.show({
      color: 'teal',
      message,
      autoClose: SUCCESS_TOAST_MS,
      'data-testid': 'toast-success',
    } as never),
  error: (message: string) =>
    notifications.show({ color: 'red', message, autoClose: 6000, 'data-testid': 'toast-error' } as never),
  info: (message: string) =>
    notifications.show({ color: 'blue', message, autoClose: SUCCESS_TOAST_MS, 'data-testid': 'toast-info' } as never),
};
