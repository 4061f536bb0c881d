import { ApiError, buildUrl, sessionToken, settleAnswer } from './api';

/** An upload the user canceled (`signal` aborted): not an error to show. */
export const isAbort = (err: unknown) => (err as Error | undefined)?.name === 'AbortError';

/**
 * Sends a multipart form with upload progress (fetch has none), answering like `apiRequest`.
 * Aborting `signal` stops the request (a Cancel button) and rejects with an AbortError.
 */
export function sendForm<T>(
  path: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const canceled = () => new DOMException('The upload was canceled.', 'AbortError');
    if (signal?.aborted) return reject(canceled());
    const xhr = new XMLHttpRequest();
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(canceled());
    xhr.open('POST', buildUrl(path));
    xhr.setRequestHeader('Accept', 'application/json');
    const token = sessionToken.get();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (onProgress) xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, 'Network error', 'NETWORK_ERROR'));
    xhr.onload = () => {
      try {
        resolve(settleAnswer<T>(xhr.status, xhr.statusText, xhr.responseText));
      } catch (err) {
        reject(err);
      }
    };
    xhr.send(form);
  });
}
