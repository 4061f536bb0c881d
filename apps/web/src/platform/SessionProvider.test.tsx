import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp, resetAfterEach } from '../../test/render.test-support';
import { signedInUser } from '../../test/session.test-support';
import { sessionToken } from './api';
import { platformKeys } from './queryKeys';
import { SessionProvider, useSession } from './SessionProvider';

vi.mock('./notify', () => ({ notify: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const USER = signedInUser();

function Status() {
  const { status, user, signOut } = useSession();
  return (
    <>
      <p data-testid="status">{`${status}:${user?.email ?? ''}`}</p>
      <button type="button" onClick={() => void signOut()}>
        sign out
      </button>
    </>
  );
}

const renderSession = () =>
  renderWithApp(
    <SessionProvider>
      <Status />
    </SessionProvider>,
  );

/** The first GET /api/me failed without an answer: the session is loaded by the second, the token kept. */
async function expectKeptAfterRetry(fetchMock: ReturnType<typeof vi.fn>) {
  vi.stubGlobal('fetch', fetchMock);
  await renderSession();
  expect(await screen.findByText('authenticated:ana@acme.com.br', {}, { timeout: 3000 })).toBeTruthy();
  expect(fetchMock).toHaveBeenCalledTimes(2);
  expect(sessionToken.get()).toBe('stored-token');
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

resetAfterEach(() => localStorage.clear());

describe('SessionProvider', () => {
  it('keeps the session when the first GET /api/me gets no answer, and loads it on the next try', async () => {
    sessionToken.set('stored-token');
    await expectKeptAfterRetry(
      vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(json(USER)),
    );
  });

  it('keeps the session when the answer to the first GET /api/me is cut off (the page being left)', async () => {
    sessionToken.set('stored-token');
    const cutOff = new Response(
      new ReadableStream({
        start(controller) {
          controller.error(new TypeError('network error'));
        },
      }),
      { status: 200 },
    );
    await expectKeptAfterRetry(vi.fn().mockResolvedValueOnce(cutOff).mockResolvedValueOnce(json(USER)));
  });

  it('an answered failure (401) ends the session and forgets the token', async () => {
    sessionToken.set('expired-token');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ message: 'Sessão expirada', code: 'UNAUTHORIZED' }, 401)));
    await renderSession();
    expect(await screen.findByText('anonymous:')).toBeTruthy();
    expect(sessionToken.get()).toBeNull();
  });

  it.each([
    ['the server revokes the token', () => json({ ok: true })],
    ['the server fails', () => json({ message: 'erro', code: 'INTERNAL' }, 500)],
    [
      'no answer comes',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('signing out when %s: the token revoked with it, then forgotten with every cached answer', async (_, logout) => {
    sessionToken.set('stored-token');
    const calls: { path: string; auth: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string, init?: RequestInit) => {
        calls.push({ path, auth: new Headers(init?.headers).get('authorization') });
        return path === '/api/auth/logout' ? logout() : json(USER);
      }),
    );
    const { queryClient } = await renderSession();
    expect(await screen.findByText('authenticated:ana@acme.com.br')).toBeTruthy();
    fireEvent.click(screen.getByText('sign out'));
    expect(await screen.findByText('anonymous:')).toBeTruthy();
    expect(sessionToken.get()).toBeNull();
    await waitFor(() => expect(queryClient.getQueryData(platformKeys.me)).toBeUndefined());
    expect(calls.find((c) => c.path === '/api/auth/logout')).toEqual({
      path: '/api/auth/logout',
      auth: 'Bearer stored-token',
    });
  });
});
