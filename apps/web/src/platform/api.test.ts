import { STORAGE_KEYS } from '@ecoa/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, buildUrl, sessionToken } from './api';

function respond(status: number, body?: unknown) {
  return vi.fn().mockResolvedValue(
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    }),
  );
}

describe('api client', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('sends the stored token as a bearer token and JSON bodies', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'tok');
    const fetchMock = respond(200, { ok: true });
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.post('/api/auth/request-code', { email: 'a@b.co' })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/request-code');
    expect(init.method).toBe('POST');
    expect(init.headers.Authorization).toBe('Bearer tok');
    expect(init.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(init.body)).toEqual({ email: 'a@b.co' });
  });

  it('can send the raw token (the legacy checkout call) to the second host', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'tok');
    const fetchMock = respond(200, { checkout_url: 'x' });
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/api/checkout', { amount: 270 }, { host: 'legacy', auth: 'raw' });
    expect(fetchMock.mock.calls[0]![1].headers.Authorization).toBe('tok');
  });

  it('sends extra headers (the Idempotency-Key of money operations) without losing its own', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'tok');
    const fetchMock = respond(200, {});
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/api/v1/credits/transfer', { amount: 1 }, { headers: { 'Idempotency-Key': 'k-1' } });
    const { headers } = fetchMock.mock.calls[0]![1];
    expect(headers).toMatchObject({ 'Idempotency-Key': 'k-1', Authorization: 'Bearer tok' });
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('builds query strings', () => {
    expect(buildUrl('/api/auth/login', 'main', { remainLogin: true, skip: undefined })).toBe(
      '/api/auth/login?remainLogin=true',
    );
  });

  it('surfaces {message, code} as an ApiError', async () => {
    vi.stubGlobal('fetch', respond(400, { message: 'Código inválido', code: 'INVALID_CODE' }));
    const err = await api.post('/api/auth/login', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, message: 'Código inválido', code: 'INVALID_CODE' });
  });

  it('a network failure is an ApiError with status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(api.get('/api/me')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('any 401 clears the token and tells the session', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'tok');
    const listener = vi.fn();
    const unsubscribe = sessionToken.subscribe(listener);
    vi.stubGlobal('fetch', respond(401, { message: 'Não autorizado', code: 'UNAUTHORIZED' }));
    await expect(api.get('/api/v1/dashboard/balance')).rejects.toMatchObject({ status: 401 });
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(listener).toHaveBeenCalled();
    unsubscribe();
  });

  it('answers without a body resolve to undefined', async () => {
    vi.stubGlobal('fetch', respond(204));
    await expect(api.post('/api/auth/logout')).resolves.toBeUndefined();
  });
});
