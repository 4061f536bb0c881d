import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../platform/api';
import { AdminUserCredits } from './AdminUserCredits';
import { renderWithApp } from './testing';

const recordPayment = vi.fn();
const adjust = vi.fn();
const emptyPage = { items: [], total: 0, page: 1, pageSize: 10 };
vi.mock('./creditsApi', async (importOriginal) => {
  const original = await importOriginal<typeof import('./creditsApi')>();
  return {
    ...original,
    adminCreditsApi: {
      balance: async () => ({
        money: 10,
        credits: Object.fromEntries(
          ['BALANCE', 'SMSSHORT', 'SMSFLASH', 'WHATSAPP', 'URA', 'URAINTEGRATION', 'RCS', 'ENRICHED'].map((t) => [
            t,
            { available: t === 'BALANCE' ? 10 : 15, reserved: 0 },
          ]),
        ),
      }),
      payments: async () => emptyPage,
      ledger: async () => emptyPage,
      recordPayment: (...args: unknown[]) => recordPayment(...args),
      adjust: (...args: unknown[]) => adjust(...args),
    },
  };
});

describe('AdminUserCredits', () => {
  afterEach(() => {
    cleanup();
    recordPayment.mockReset();
    adjust.mockReset();
  });

  it('records a payment with the spec form messages', async () => {
    recordPayment.mockResolvedValue({ payment: {}, money: 280.5 });
    await renderWithApp(<AdminUserCredits userId="u-1" />);
    await screen.findByText('R$ 10,00');
    fireEvent.click(screen.getByTestId('admin-payment-submit'));
    expect(await screen.findByText('Valor pago é obrigatório')).toBeTruthy();
    fireEvent.change(screen.getByTestId('admin-payment-amount'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('admin-payment-submit'));
    expect(await screen.findByText('Valor pago não pode ser menor ou igual a 0')).toBeTruthy();
    fireEvent.change(screen.getByTestId('admin-payment-amount'), { target: { value: '270,5' } });
    fireEvent.change(screen.getByTestId('admin-payment-reason'), { target: { value: 'PIX do dia 10' } });
    fireEvent.click(screen.getByTestId('admin-payment-submit'));
    await waitFor(() =>
      expect(recordPayment).toHaveBeenCalledWith(
        'u-1',
        { amount: 270.5, method: 'PIX', reason: 'PIX do dia 10' },
        expect.any(String),
      ),
    );
    expect(adjust).not.toHaveBeenCalled();
  });

  it('adjusts: the type is required; a refusal from the server shows under the amount', async () => {
    adjust.mockRejectedValue(new ApiError(400, 'O ajuste deixaria o saldo abaixo de zero.', 'ADJUSTMENT_BELOW_ZERO'));
    await renderWithApp(<AdminUserCredits userId="u-2" />);
    fireEvent.click(screen.getByTestId('admin-adjust-submit'));
    expect(await screen.findByText('Tipo de crédito é obrigatório')).toBeTruthy();
    fireEvent.click(screen.getByTestId('admin-adjust-type'));
    fireEvent.click(await screen.findByRole('option', { name: 'Saldo' }));
    fireEvent.change(screen.getByTestId('admin-adjust-amount'), { target: { value: '-20' } });
    fireEvent.change(screen.getByTestId('admin-adjust-reason'), { target: { value: 'estorno' } });
    fireEvent.click(screen.getByTestId('admin-adjust-submit'));
    await waitFor(() =>
      expect(adjust).toHaveBeenCalledWith(
        'u-2',
        { type: 'BALANCE', amount: -20, reason: 'estorno' },
        expect.any(String),
      ),
    );
    expect(await screen.findByText('O ajuste deixaria o saldo abaixo de zero.')).toBeTruthy();
  });
});
