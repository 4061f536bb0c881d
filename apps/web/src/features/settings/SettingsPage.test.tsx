import type { AccountProfile, SessionInfo } from '@ecoa/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
import { SettingsPage } from './SettingsPage';

const session = { refreshUser: vi.fn(async () => null), signOut: vi.fn(async () => {}) };
vi.mock('../../platform/SessionProvider', () => ({ useSession: () => session }));

const PROFILE: AccountProfile = {
  fullName: 'Ana Souza',
  name: 'Acme Ltda',
  email: 'ana@acme.com.br',
  cnpj: '11222333000181',
  mobilePhone: '11987654321',
  userProfileImageLink: null,
};
const SESSIONS: SessionInfo[] = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    current: true,
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0 Safari/537.36',
    device: { browser: 'Chrome', os: 'Linux', kind: 'desktop' },
    remainLogin: false,
    createdAt: '2026-01-02T10:00:00.000Z',
    lastSeenAt: '2026-01-02T11:00:00.000Z',
    expiresAt: '2026-01-02T22:00:00.000Z',
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    current: false,
    ip: '198.51.100.4',
    userAgent: null,
    device: { browser: 'Safari', os: 'iOS', kind: 'mobile' },
    remainLogin: true,
    createdAt: '2026-01-01T10:00:00.000Z',
    lastSeenAt: '2026-01-01T12:00:00.000Z',
    expiresAt: '2026-01-31T12:00:00.000Z',
  },
];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Call = { method: string; url: string; body: unknown };

function stubApi(overrides: Partial<Record<string, (call: Call) => Response>> = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = {
        method: init.method ?? 'GET',
        url: String(url),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      };
      calls.push(call);
      const key = `${call.method} ${call.url}`;
      const override = overrides[key];
      if (override) return override(call);
      if (key === 'GET /api/v1/me/profile') return json(PROFILE);
      if (key === 'GET /api/v1/me/sessions') return json({ items: SESSIONS });
      if (key === 'GET /api/v1/webhook-endpoints') return json([]);
      if (key === 'PATCH /api/v1/me/profile') return json({ ...PROFILE, ...(call.body as object) });
      return json({ message: 'not stubbed', code: 'NOT_FOUND' }, 404);
    }),
  );
  return calls;
}

const renderPage = (lng: 'pt' | 'en' | 'cn' = 'pt') => renderWithApp(<SettingsPage />, { lng });

/** Types `value` into the profile's field `testId` and presses Save. */
async function editProfile(testId: string, value: string) {
  fireEvent.input(await screen.findByTestId(testId), { target: { value } });
  fireEvent.click(screen.getByTestId('profile-save'));
}

describe('SettingsPage', () => {
  beforeEach(() => {
    session.refreshUser.mockClear();
    session.signOut.mockClear();
  });
  resetAfterEach();

  it('shows the profile with the masks, e-mail and CNPJ read-only, and the sessions', async () => {
    stubApi();
    await renderPage();
    const fullName = await screen.findByTestId('profile-fullName');
    expect(fullName).toHaveProperty('value', 'Ana Souza');
    expect(screen.getByTestId('profile-company')).toHaveProperty('value', 'Acme Ltda');
    expect(screen.getByTestId('profile-mobilePhone')).toHaveProperty('value', '(11) 98765-4321');
    expect(screen.getByTestId('profile-email')).toHaveProperty('readOnly', true);
    expect(screen.getByTestId('profile-cnpj')).toHaveProperty('value', '11.222.333/0001-81');
    expect(screen.getByTestId('profile-cnpj')).toHaveProperty('readOnly', true);

    const rows = await screen.findAllByTestId('session-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('session-device').textContent).toBe('Chrome no Linux');
    expect(within(rows[0]!).getByTestId('session-current').textContent).toBe('Este dispositivo');
    expect(within(rows[0]!).getByTestId('session-end').textContent).toBe('Sair deste dispositivo');
    expect(within(rows[1]!).queryByTestId('session-current')).toBeNull();
    expect(within(rows[1]!).getByText('IP 198.51.100.4')).toBeTruthy();
  });

  it.each(['pt', 'en', 'cn'] as const)('has every text translated in %s (no raw keys)', async (lng) => {
    stubApi();
    const { container } = await renderPage(lng);
    await screen.findAllByTestId('session-row');
    expect(container.textContent).not.toMatch(/settings\.|errors\.|nav\./);
  });

  it('refuses a bad phone with the sign-up message, without calling the server', async () => {
    const calls = stubApi();
    await renderPage();
    await editProfile('profile-mobilePhone', '1198765');
    expect(await screen.findByText('* Número do Celular é obrigatório')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('saves the profile and refreshes the shell user', async () => {
    const calls = stubApi();
    await renderPage();
    await editProfile('profile-company', 'Acme Brasil');
    await waitFor(() => expect(session.refreshUser).toHaveBeenCalled());
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toEqual({ fullName: 'Ana Souza', name: 'Acme Brasil', mobilePhone: '11987654321' });
  });

  it('ends another device without signing out, and signs out when all are ended', async () => {
    const calls = stubApi({
      [`DELETE /api/v1/me/sessions/${SESSIONS[1]!.id}`]: () => json({ current: false }),
      'DELETE /api/v1/me/sessions': () => json({ ended: 2 }),
    });
    await renderPage();
    const rows = await screen.findAllByTestId('session-row');
    fireEvent.click(within(rows[1]!).getByTestId('session-end'));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(session.signOut).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('sessions-end-all'));
    fireEvent.click(await screen.findByTestId('sessions-end-all-confirm'));
    await waitFor(() => expect(session.signOut).toHaveBeenCalled());
  });

  it('says so when the profile cannot be loaded', async () => {
    stubApi({ 'GET /api/v1/me/profile': () => json({ message: 'x', code: 'INTERNAL' }, 500) });
    await renderPage();
    expect((await screen.findByTestId('settings-error')).textContent).toContain(
      'Não foi possível carregar suas configurações.',
    );
  });
});
