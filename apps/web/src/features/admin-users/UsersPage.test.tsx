import { cnpjCheckDigits } from '@ecoa/shared';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonAnswer, realApi, serverCall, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { UsersPage } from './UsersPage';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../platform/notify', () => ({ notify: toast }));
// The signed-in administrator as the screen knows them: an id the server does not know, so the
// screen lets them edit their own row and the server's own refusal shows (CANNOT_DEMOTE_SELF).
vi.mock('../../platform/SessionProvider', () => ({
  useSession: () => ({ user: { id: 'admin-1' }, refreshUser: vi.fn() }),
}));

type AdminUser = { id: string; createdAt: string; priceTable: Record<string, number>; accessLevel: string };

/** A company signed up on the real server, with R$ 1.234,50 paid and its SMS price set by the administrator. */
async function seedMaria(adminToken: string): Promise<AdminUser> {
  const first12 = `${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}0001`;
  const cnpj = `${first12}${cnpjCheckDigits(first12)}`;
  const email = `maria-${Date.now().toString(36)}@padaria.test`;
  const signedUp = await serverCall<{ id: string }>(null, 'POST', '/api/user', {
    email,
    name: 'Padaria Pão Quente',
    fantasyName: 'Padaria Pão Quente',
    fullName: 'Maria da Silva',
    cnpj,
    mobilePhone: '11987654321',
    terms: true,
    priceTable: { smsShort: 0, smsFlash: 0, whatsapp: 0, ura: 0, enriched: 0, rcs: 0, uraIntegration: 0 },
  });
  expect(signedUp.status).toBe(201);
  const id = signedUp.body.id;
  const paid = await serverCall(adminToken, 'POST', `/api/v1/admin/users/${id}/payments`, {
    amount: 1234.5,
    method: 'PIX',
    reason: 'saldo inicial',
  });
  expect(paid.status).toBe(201);
  // Off, then on again with the price: one history entry with both changes.
  expect((await serverCall(adminToken, 'PATCH', `/api/v1/admin/users/${id}`, { active: false })).status).toBe(200);
  const on = await serverCall(adminToken, 'PATCH', `/api/v1/admin/users/${id}`, {
    active: true,
    priceTable: { smsShort: 0.085 },
  });
  expect(on.status).toBe(200);
  return (await serverCall<AdminUser>(adminToken, 'GET', `/api/v1/admin/users/${id}`)).body;
}

describe('UsersPage (real server)', () => {
  const { adminToken, adminId } = realApi();
  let maria: AdminUser;
  beforeAll(async () => {
    maria = await seedMaria(adminToken);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    toast.success.mockReset();
    toast.error.mockReset();
  });

  it('shows each user masked and formatted, searches (debounced) and says when nothing matches', async () => {
    const searches: string[] = [];
    useRealApi(adminToken, (path) => {
      const search = new URL(path, 'http://x').searchParams.get('search');
      if (path.startsWith('/api/v1/admin/users?') && search) searches.push(search);
      return undefined;
    });
    await renderWithApp(<UsersPage />);
    const row = await screen.findByTestId(`user-row-${maria.id}`);
    for (const text of ['Padaria Pão Quente', 'Maria da Silva', '(11) 98765-4321', 'Ativo', 'Usuário']) {
      expect(within(row).getByText(text)).toBeTruthy();
    }
    const cnpj = (await serverCall<{ cnpj: string }>(adminToken, 'GET', `/api/v1/admin/users/${maria.id}`)).body.cnpj;
    expect(within(row).getByText(cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5'))).toBeTruthy();
    expect(within(row).getByTestId('user-balance').textContent).toBe('R$\u00a01.234,50');
    expect(within(row).getByText(new Date(maria.createdAt).toLocaleDateString('pt-BR'))).toBeTruthy();

    fireEvent.change(screen.getByTestId('users-search'), { target: { value: '99.999' } });
    expect(await screen.findByText('Nenhum usuário encontrado para "99.999".')).toBeTruthy();
    // One request for the whole typed text, not one per key.
    expect(searches).toEqual(['99.999']);
  });

  it('shows an error with a retry', async () => {
    // The server failing once, injected at the network (the shared server cannot be made to).
    let failures = 1;
    useRealApi(adminToken, (path) => {
      if (path.startsWith('/api/v1/admin/users?') && failures > 0) {
        failures--;
        return jsonAnswer(500, { message: 'boom', code: 'INTERNAL' });
      }
      return undefined;
    });
    await renderWithApp(<UsersPage />);
    expect(await screen.findByTestId('users-error')).toBeTruthy();
    fireEvent.click(screen.getByText('Tentar de novo'));
    expect(await screen.findByTestId(`user-row-${maria.id}`)).toBeTruthy();
  });

  it('opens the drawer, saves only the changed price, shows the history and translated errors', async () => {
    useRealApi(adminToken);
    const admin = (await serverCall<{ email: string }>(adminToken, 'GET', '/api/me')).body;
    await renderWithApp(<UsersPage />);
    fireEvent.click(await screen.findByTestId(`user-row-${maria.id}`));

    const history = await screen.findByTestId('user-history');
    // Each entry names the administrator who made it.
    expect(history.textContent).toContain(admin.email);
    expect(
      within(history)
        .getAllByTestId('history-change')
        .map((e) => e.textContent)
        .sort(),
    ).toEqual(['Ativo: Não → Sim', 'Ativo: Sim → Não', 'Preço SMS Short: R$\u00a00,00 → R$\u00a00,085'].sort());

    const save = screen.getByTestId('user-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    const price = screen.getByTestId('price-smsShort') as HTMLInputElement;
    // Cents always shown at rest ("R$ 0,00", not "R$ 0"), and the ten-thousandths a price has.
    expect((screen.getByTestId('price-smsFlash') as HTMLInputElement).value).toBe('R$ 0,00');
    expect(price.value).toBe('R$ 0,085');
    fireEvent.change(price, { target: { value: 'R$ 0,0875' } });
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Usuário atualizado.'));
    const saved = (await serverCall<AdminUser>(adminToken, 'GET', `/api/v1/admin/users/${maria.id}`)).body;
    expect(saved.priceTable).toEqual({ ...maria.priceTable, smsShort: 0.0875 });
    cleanup();

    // The administrator's own row: the server refuses to demote them, translated.
    await renderWithApp(<UsersPage />);
    fireEvent.click(await screen.findByTestId(`user-row-${adminId}`));
    await screen.findByTestId('user-form');
    fireEvent.click(screen.getByTestId('user-access-level'));
    fireEvent.click(await screen.findByRole('option', { name: 'Usuário' }));
    const saveOwn = screen.getByTestId('user-save') as HTMLButtonElement;
    await waitFor(() => expect(saveOwn.disabled).toBe(false));
    fireEvent.click(saveOwn);
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Você não pode remover o seu próprio acesso de administrador.'),
    );
    const self = (await serverCall<AdminUser>(adminToken, 'GET', `/api/v1/admin/users/${adminId}`)).body;
    expect(self.accessLevel).toBe('ADMINISTRATOR');
  });
});
