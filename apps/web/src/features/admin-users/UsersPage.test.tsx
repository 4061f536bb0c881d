import type { AdminUser, AdminUserDetail } from '@ecoa/shared';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../platform/api';
import { renderWithApp } from '../credits/testing';
import { UsersPage } from './UsersPage';

const maria: AdminUser = {
  id: 'u-1',
  name: 'Padaria Pão Quente',
  fullName: 'Maria da Silva',
  email: 'maria@padaria.test',
  cnpj: '12345678000195',
  mobilePhone: '11987654321',
  createdAt: '2026-03-04T12:00:00.000Z',
  active: true,
  accessLevel: 'USER',
  isNewUser: false,
  balance: { money: 1234.5 },
  priceTable: { smsShort: 0.085, smsFlash: 0, whatsapp: 0, ura: 0, rcs: 0, uraIntegration: 0, enriched: 0 },
  permissions: { enriched: [] },
};
const detail: AdminUserDetail = {
  ...maria,
  history: [
    {
      id: 'a-1',
      action: 'update',
      createdAt: '2026-03-05T15:30:00.000Z',
      actor: { id: 'admin-1', name: 'Ana Admin', email: 'ana@ecoa.test' },
      changes: { 'priceTable.smsShort': { from: 0, to: 0.085 }, active: { from: false, to: true } },
    },
  ],
};

const list = vi.fn();
const update = vi.fn();
vi.mock('./adminUsersApi', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./adminUsersApi')>()),
  adminUsersApi: {
    list: (...args: unknown[]) => list(...args),
    get: async () => detail,
    update: (...args: unknown[]) => update(...args),
  },
}));
const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../auth/notify', () => ({ notify: toast }));
vi.mock('../auth/SessionProvider', () => ({
  useSession: () => ({ user: { id: 'admin-1' }, refreshUser: vi.fn() }),
}));
vi.mock('../credits/creditsApi', async (importOriginal) => {
  const empty = { items: [], total: 0, page: 1, pageSize: 10 };
  return {
    ...(await importOriginal<typeof import('../credits/creditsApi')>()),
    adminCreditsApi: {
      balance: async () => ({ money: 0, credits: {} }),
      payments: async () => empty,
      ledger: async () => empty,
    },
  };
});

describe('UsersPage', () => {
  afterEach(() => {
    cleanup();
    list.mockReset();
    update.mockReset();
  });

  it('shows each user masked and formatted, searches (debounced) and says when nothing matches', async () => {
    list.mockImplementation(async ({ search }: { search: string }) =>
      search ? { items: [], total: 0, page: 1, pageSize: 20 } : { items: [maria], total: 1, page: 1, pageSize: 20 },
    );
    await renderWithApp(<UsersPage />);
    const row = await screen.findByTestId('user-row-u-1');
    for (const text of [
      'Padaria Pão Quente',
      'Maria da Silva',
      '12.345.678/0001-95',
      '(11) 98765-4321',
      'Ativo',
      'Usuário',
    ]) {
      expect(within(row).getByText(text)).toBeTruthy();
    }
    expect(within(row).getByTestId('user-balance').textContent).toBe('R$\u00a01.234,50');
    expect(within(row).getByText(new Date(maria.createdAt).toLocaleDateString('pt-BR'))).toBeTruthy();

    fireEvent.change(screen.getByTestId('users-search'), { target: { value: '99.999' } });
    expect(await screen.findByText('Nenhum usuário encontrado para "99.999".')).toBeTruthy();
    expect(list).toHaveBeenLastCalledWith({ search: '99.999', page: 1, pageSize: 20 }, expect.anything());
    // One request for the whole typed text, not one per key.
    expect(list.mock.calls.filter(([p]) => (p as { search: string }).search !== '').length).toBe(1);
  });

  it('shows an error with a retry', async () => {
    list.mockRejectedValueOnce(new ApiError(500, 'boom', 'INTERNAL'));
    list.mockResolvedValueOnce({ items: [maria], total: 1, page: 1, pageSize: 20 });
    await renderWithApp(<UsersPage />);
    expect(await screen.findByTestId('users-error')).toBeTruthy();
    fireEvent.click(screen.getByText('Tentar novamente'));
    expect(await screen.findByTestId('user-row-u-1')).toBeTruthy();
  });

  it('opens the drawer, saves only the changed price, shows the history and translated errors', async () => {
    list.mockResolvedValue({ items: [maria], total: 1, page: 1, pageSize: 20 });
    update.mockRejectedValueOnce(new ApiError(409, 'x', 'CANNOT_DEMOTE_SELF'));
    update.mockResolvedValueOnce({ ...maria, priceTable: { ...maria.priceTable, smsShort: 0.0875 } });
    await renderWithApp(<UsersPage />);
    fireEvent.click(await screen.findByTestId('user-row-u-1'));

    const history = await screen.findByTestId('user-history');
    expect(within(history).getByText('Ana Admin')).toBeTruthy();
    expect(
      within(history)
        .getAllByTestId('history-change')
        .map((e) => e.textContent),
    ).toEqual(['Preço SMS Short: R$\u00a00,00 → R$\u00a00,085', 'Ativo: Não → Sim']);

    const save = screen.getByTestId('user-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    const price = screen.getByTestId('price-smsShort') as HTMLInputElement;
    // Cents always shown at rest ("R$ 0,00", not "R$ 0"), and the ten-thousandths a price has.
    expect((screen.getByTestId('price-smsFlash') as HTMLInputElement).value).toBe('R$ 0,00');
    expect(price.value).toBe('R$ 0,085');
    fireEvent.change(price, { target: { value: 'R$ 0,0875' } });
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(update).toHaveBeenCalledWith('u-1', { priceTable: { smsShort: 0.0875 } }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Você não pode remover o seu próprio acesso de administrador.'),
    );
    fireEvent.click(save);
    await waitFor(() => expect(update).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Usuário atualizado.'));
  });
});
