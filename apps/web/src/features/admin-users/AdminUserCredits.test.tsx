import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { realApi, serverCall, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { AdminUserCredits } from './AdminUserCredits';

type Page<T> = { items: T[] };
type Balance = { money: number; credits: Record<string, { available: number; reserved: number }> };

/** The administrator's drawer against the real server: what it records is what the server holds. */
describe('AdminUserCredits (real server)', () => {
  // A user of its own: it asserts exact balances while other files pay and convert as the shared user.
  const { adminToken } = realApi();
  const userId = realApi().spareUsers[4]!.id;
  const moneyOf = async () =>
    (await serverCall<Balance>(adminToken, 'GET', `/api/v1/admin/users/${userId}/balance`)).body.money;
  beforeEach(() => useRealApi(adminToken));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('records a payment with the spec form messages', async () => {
    const before = await moneyOf();
    const reason = `PIX do dia 10 ${Date.now()}`;
    await renderWithApp(<AdminUserCredits userId={userId} />);
    await waitFor(() =>
      expect(screen.getByTestId('admin-balance-BALANCE').textContent).toContain(
        before.toLocaleString('pt-BR', { minimumFractionDigits: 2 }),
      ),
    );
    fireEvent.click(screen.getByTestId('admin-payment-submit'));
    expect(await screen.findByText('Valor pago é obrigatório')).toBeTruthy();
    fireEvent.change(screen.getByTestId('admin-payment-amount'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('admin-payment-submit'));
    expect(await screen.findByText('Valor pago não pode ser menor ou igual a 0')).toBeTruthy();
    fireEvent.change(screen.getByTestId('admin-payment-amount'), { target: { value: '270,5' } });
    fireEvent.change(screen.getByTestId('admin-payment-reason'), { target: { value: reason } });
    fireEvent.click(screen.getByTestId('admin-payment-submit'));

    // The server holds it: one payment with that reason, the money up by R$ 270,50.
    await waitFor(async () => {
      const payments = await serverCall<Page<{ amount: number; method: string; reason: string }>>(
        adminToken,
        'GET',
        `/api/v1/admin/users/${userId}/payments?pageSize=100`,
      );
      expect(payments.body.items.filter((p) => p.reason === reason)).toEqual([
        expect.objectContaining({ amount: 270.5, method: 'PIX' }),
      ]);
    });
    expect(await moneyOf()).toBeCloseTo(before + 270.5, 2);
  });

  it('adjusts: the type is required; a refusal from the server shows under the amount', async () => {
    const before = await moneyOf();
    await renderWithApp(<AdminUserCredits userId={userId} />);
    fireEvent.click(screen.getByTestId('admin-adjust-submit'));
    expect(await screen.findByText('Tipo de crédito é obrigatório')).toBeTruthy();
    fireEvent.click(screen.getByTestId('admin-adjust-type'));
    fireEvent.click(await screen.findByRole('option', { name: 'Saldo' }));
    // More than the user has: the real ledger refuses to go below zero.
    const tooMuch = Math.ceil(before) + 20;
    fireEvent.change(screen.getByTestId('admin-adjust-amount'), { target: { value: `-${tooMuch}` } });
    fireEvent.change(screen.getByTestId('admin-adjust-reason'), { target: { value: 'estorno' } });
    fireEvent.click(screen.getByTestId('admin-adjust-submit'));
    // Translated by its code (errors.codes.ADJUSTMENT_BELOW_ZERO), with what is available: not the server's text.
    const refusal = await screen.findByText(/^O ajuste deixaria o saldo negativo\. Disponível: /);
    expect(refusal.textContent).toMatch(/Disponível: R\$\s?[\d.]+,\d{2}\.$/);
    expect(await moneyOf()).toBe(before);
  });
});
