import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { isAbort } from './form-upload';

type Send<I, T> = (input: I, onProgress: (fraction: number) => void, signal: AbortSignal) => Promise<T>;

/**
 * A multipart upload (`sendForm`) as a mutation: its progress (0..1) while it is pending, and
 * `cancel()` for a Cancel button. A canceled upload ends as an AbortError: `failure` is the
 * error to show, never that one (the user asked for it).
 */
export function useUploadMutation<I, T>(
  send: Send<I, T>,
  options: Omit<UseMutationOptions<T, unknown, I>, 'mutationFn'> = {},
) {
  const [progress, setProgress] = useState(0);
  const controller = useRef<AbortController | null>(null);
  const mutation = useMutation<T, unknown, I>({
    ...options,
    mutationFn: (input) => {
      setProgress(0);
      controller.current = new AbortController();
      return send(input, setProgress, controller.current.signal);
    },
    onSettled: (...args) => {
      controller.current = null;
      return options.onSettled?.(...args);
    },
  });
  return {
    mutation,
    progress,
    cancel: () => controller.current?.abort(),
    failure: mutation.error && !isAbort(mutation.error) ? mutation.error : null,
  };
}
