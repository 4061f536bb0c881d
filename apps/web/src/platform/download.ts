import { ApiError, buildUrl, sessionToken, settleAnswer } from './api';

/**
 * Downloads a file the API streams (an export) with the session token, then hands it to the
 * browser under the name the server gave (`Content-Disposition`, UTF-8 form first).
 */
export async function downloadFile(path: string, query: Record<string, string>, fallbackName: string): Promise<void> {
  const res = await fetchFile(path, { query });
  const disposition = res.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const name = utf8 ? decodeURIComponent(utf8) : fallbackName;
  saveBlob(await res.blob(), name);
}

/**
 * A file the API serves to its owner, fetched with the session token (a link or an `<audio src>`
 * cannot send it): the successful answer, its body still to read; a refusal is the ApiError
 * `apiRequest` would throw, no answer at all the catalogue's "could not reach the server".
 */
export async function fetchFile(
  path: string,
  options: { query?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const token = sessionToken.get();
  let res: Response;
  try {
    res = await fetch(buildUrl(path, 'main', options.query), {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError(0, 'Network error', 'NETWORK_ERROR');
  }
  if (!res.ok) settleAnswer(res.status, res.statusText, await res.text());
  return res;
}

/** Hands a file made in the browser (a QR code, say) to the user as a download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
