import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionToken } from './api';
import { SessionProvider, useSession } from './SessionProvider';

vi.mock('./notify', () => ({ notify: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const USER = {
  id: 'u1',
  name: 'Acme',
  email: 'ana@acme.com.br',
  accessLevel: 'USER',
  isNewUser: false,
  userProfileImageLink: null,
  balance: { money: 0 },
  permissions: { enriched: [] },
  priceTable: { smsShort: 0, smsFlash: 0, whatsapp: 0, ura: 0, rcs: 0, uraIntegration: 0, enriched: 0 },
};

function Status() {
  const { status, user } = useSession();
  return <p data-testid="status">{`${status}:${user?.email ?? ''}`}</p>;
}

function renderSession() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <SessionProvider>
          <Status />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('SessionProvider', () => {
  it('keeps the session when the first GET /api/me gets no answer, and loads it on the next try', async () => {
    sessionToken.set('stored-token');
    const fetchMock = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(json(USER));
    vi.stubGlobal('fetch', fetchMock);
    renderSession();
    expect(await screen.findByText('authenticated:ana@acme.com.br', {}, { timeout: 3000 })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(sessionToken.get()).toBe('stored-token');
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
    const fetchMock = vi.fn().mockResolvedValueOnce(cutOff).mockResolvedValueOnce(json(USER));
    vi.stubGlobal('fetch', fetchMock);
    renderSession();
    expect(await screen.findByText('authenticated:ana@acme.com.br', {}, { timeout: 3000 })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(sessionToken.get()).toBe('stored-token');
  });

  it('an answered failure (401) ends the session and forgets the token', async () => {
    sessionToken.set('expired-token');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ message: 'Sessão expirada', code: 'UNAUTHORIZED' }, 401)));
    renderSession();
    expect(await screen.findByText('anonymous:')).toBeTruthy();
    expect(sessionToken.get()).toBeNull();
  });
});
