import { ApiError, buildUrl, sessionToken } from './api';

/**
 * Downloads a file the API streams (an export) with the session token, then hands it to the
 * browser under the name the server gave (`Content-Disposition`, UTF-8 form first).
 */
export async function downloadFile(path: string, query: Record<string, string>, fallbackName: string): Promise<void> {
  const token = sessionToken.get();
  let res: Response;
  try {
    res = await fetch(buildUrl(path, 'main', query), { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    // No answer at all: the catalogue's "could not reach the server", like apiRequest's.
    throw new ApiError(0, 'Network error', 'NETWORK_ERROR');
  }
  if (res.status === 401) sessionToken.set(null);
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as {
      message?: string;
      code?: string;
      details?: Record<string, unknown>;
    };
    throw new ApiError(res.status, body.message ?? res.statusText, body.code, body.details);
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const name = utf8 ? decodeURIComponent(utf8) : fallbackName;
  saveBlob(await res.blob(), name);
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
