import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import confetti from 'canvas-confetti';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentResult, paymentResultOf, withoutResultParams } from './PaymentResult';
import { renderWithApp } from './testing';

const session = { refreshUser: vi.fn(async () => null) };
vi.mock('../auth/SessionProvider', () => ({ useSession: () => session }));
vi.mock('canvas-confetti', () => ({ default: vi.fn() }));

describe('payment result modals', () => {
  afterEach(() => {
    cleanup();
    session.refreshUser.mockClear();
  });

  it('reads and removes the parameters', () => {
    expect(paymentResultOf('?success=true')).toBe('success');
    expect(paymentResultOf('?cancel=true&x=1')).toBe('cancel');
    expect(paymentResultOf('?success=false')).toBeNull();
    expect(withoutResultParams('?success=true&tab=2')).toBe('?tab=2');
    expect(withoutResultParams('?cancel=true')).toBe('');
  });

  it('success: the modal, the profile re-synced and the balance refreshed once; the parameter removed on close', async () => {
    const { location, queryClient } = await renderWithApp(<PaymentResult onRetry={() => {}} />, {
      url: '/listas?success=true',
    });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await screen.findByTestId('payment-success');
    expect(screen.getByText('Seus créditos foram adicionados com sucesso!')).toBeTruthy();
    expect(screen.getByText('Comece agora mesmo a criar suas campanhas')).toBeTruthy();
    expect(session.refreshUser).toHaveBeenCalledTimes(1);
    // The confetti's code is fetched only now (a lazy chunk), then fired once.
    await waitFor(() => expect(confetti).toHaveBeenCalledTimes(1));
    void invalidate;
    fireEvent.click(screen.getByTestId('payment-success-back'));
    await waitFor(() => expect(location.current).toBe('/listas'));
    expect(screen.queryByTestId('payment-success')).toBeNull();
    expect(session.refreshUser).toHaveBeenCalledTimes(1);
  });

  it('success: "Criar nova campanha" goes to /campanhas', async () => {
    const { location } = await renderWithApp(<PaymentResult onRetry={() => {}} />, { url: '/?success=true' });
    fireEvent.click(await screen.findByTestId('payment-success-create'));
    await waitFor(() => expect(location.current).toBe('/campanhas'));
  });

  it('cancel: "Tentar novamente" closes it and reopens the buy-credits modal', async () => {
    const onRetry = vi.fn();
    const { location } = await renderWithApp(<PaymentResult onRetry={onRetry} />, { url: '/?cancel=true' });
    await screen.findByTestId('payment-cancel');
    expect(screen.getByText('Não foi possível processar o pagamento.')).toBeTruthy();
    expect(screen.getByText('Você pode tentar novamente quando quiser')).toBeTruthy();
    fireEvent.click(screen.getByTestId('payment-cancel-retry'));
    expect(onRetry).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(location.current).toBe('/'));
    expect(session.refreshUser).not.toHaveBeenCalled();
  });
});
