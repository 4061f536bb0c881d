import { STORAGE_KEYS } from '@ecoa/shared';
import { storage } from './storage';

/**
 * A small fetch client for the JSON API (spec section 7). Two hosts are configurable: the main
 * API and the second ("legacy") backend; both default to the same origin. Every call carries the
 * session token from localStorage: `Bearer <token>`, or the raw token for the legacy checkout.
 * Any 401 clears the token, which signs the user out silently (spec section 4 "Session").
 */
export const API_BASE_URLS = {
  main: trimSlash(import.meta.env.VITE_API_URL ?? ''),
  legacy: trimSlash(import.meta.env.VITE_LEGACY_API_URL ?? ''),
} as const;
export type ApiHost = keyof typeof API_BASE_URLS;

function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** An API failure with the server's `{message, code}`; status 0 means the network failed. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The server's optional `details` (e.g. `retryAfterSeconds` of a 429). */
  readonly details: Record<string, unknown> | undefined;
  constructor(status: number, message: string, code?: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Appended as a query string; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  host?: ApiHost;
  /** `bearer` (default): `Authorization: Bearer <token>`; `raw`: the bare token (legacy checkout). */
  auth?: 'bearer' | 'raw' | 'none';
  signal?: AbortSignal;
  /** Extra request headers (e.g. `Idempotency-Key`). */
  headers?: Record<string, string>;
}

/* ---------- the session token, observable so the UI follows a silent sign-out ---------- */

type Listener = () => void;
const tokenListeners = new Set<Listener>();

export const sessionToken = {
  get: (): string | null => storage.getToken(),
  set(token: string | null): void {
    if (storage.getToken() === token) return;
    storage.setToken(token);
    for (const listener of tokenListeners) listener();
  },
  subscribe(listener: Listener): () => void {
    tokenListeners.add(listener);
    return () => tokenListeners.delete(listener);
  },
};

// Another tab signing in or out changes the same key: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === STORAGE_KEYS.token) for (const listener of tokenListeners) listener();
  });
}
/* ---------- requests ---------- */

export function buildUrl(path: string, host: ApiHost = 'main', query?: RequestOptions['query']): string {
  let url = `${API_BASE_URLS[host]}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    if (qs) url += `${url.includes('?') ? '&' : '?'}${qs}`;
  }
  return url;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, query, host = 'main', auth = 'bearer' } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = sessionToken.get();
  if (token && auth !== 'none') headers.Authorization = auth === 'raw' ? token : `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(buildUrl(path, host, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError(0, 'Network error', 'NETWORK_ERROR');
  }

  // Signed out even when the body never arrives.
  if (response.status === 401) sessionToken.set(null);

  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    // The body was cut off (the page is being left, the connection dropped): no answer either.
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError(0, 'Network error', 'NETWORK_ERROR');
  }
  return settleAnswer<T>(response.status, response.statusText, text);
}

/**
 * An answer's body read the one way, whatever sent the request (fetch, an upload's XHR, a file
 * download): a 401 forgets the token; a success is its JSON; a failure is an ApiError with the
 * server's code and details.
 */
export function settleAnswer<T>(status: number, statusText: string, text: string): T {
  if (status === 401) sessionToken.set(null);
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (status < 200 || status >= 300) {
    const payload = (data ?? {}) as { message?: unknown; code?: unknown; details?: unknown };
    const message = typeof payload.message === 'string' && payload.message ? payload.message : statusText;
    const details =
      payload.details && typeof payload.details === 'object' ? (payload.details as Record<string, unknown>) : undefined;
    throw new ApiError(status, message, typeof payload.code === 'string' ? payload.code : undefined, details);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
};
