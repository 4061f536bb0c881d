import { MODAL_CLOSE_DELAY_MS } from '@ecoa/shared';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import confetti from 'canvas-confetti';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { realApi, serverCall, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { PaymentResult, paymentResultOf, withoutResultParams } from './PaymentResult';

vi.mock('canvas-confetti', () => ({ default: vi.fn() }));

const user = () => realApi().spareUsers[2]!;
const origin = 'http://localhost:3000';

/** A card checkout of `token`'s user on the real server (its built-in test checkout): the payment's id. */
async function pendingPayment(token: string, amount = 300): Promise<string> {
  const res = await serverCall<{ checkout_url: string }>(token, 'POST', '/api/checkout', {
    amount,
    successUrl: `${origin}/?success=true&payment={PAYMENT_ID}`,
    cancelUrl: `${origin}/?cancel=true`,
  });
  if (res.status !== 200) throw new Error(`checkout: ${res.status}`);
  return new URL(res.body.checkout_url).pathname.split('/').pop()!;
}
/** The customer presses Pay or Cancel on the test checkout page. */
const finish = (id: string, action: 'pay' | 'cancel') =>
  fetch(`${realApi().url}/api/checkout/test/${id}/${action}`, { method: 'POST', redirect: 'manual' });

describe('payment result modals (real server)', () => {
  beforeEach(() => useRealApi(user().token));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(confetti).mockClear();
  });

  it('reads and removes the parameters', () => {
    const id = '0b8e6f7c-1f0a-4c55-9d0e-5a1f3b2c4d5e';
    expect(paymentResultOf(`?success=true&payment=${id}`)).toEqual({ kind: 'success', paymentId: id });
    expect(paymentResultOf('?success=true')).toEqual({ kind: 'success', paymentId: null });
    expect(paymentResultOf('?success=true&payment=../x')).toEqual({ kind: 'success', paymentId: null });
    expect(paymentResultOf('?cancel=true&x=1')).toEqual({ kind: 'cancel' });
    expect(paymentResultOf('?success=false')).toBeNull();
    expect(withoutResultParams(`?success=true&payment=${id}&tab=2`)).toBe('?tab=2');
    expect(withoutResultParams('?cancel=true')).toBe('');
  });

  it('`?success=true` naming no payment shows no success modal (anyone can open it)', async () => {
    const { location } = await renderWithApp(<PaymentResult onRetry={() => {}} />, { url: '/?success=true' });
    await waitFor(() => expect(location.current).toBe('/'));
    expect(screen.queryByTestId('payment-success')).toBeNull();
    expect(screen.queryByTestId('payment-confirming')).toBeNull();
  });

  it('confirming… while the payment is PENDING; the spec’s success modal, with the Compras line, once it SUCCEEDED', async () => {
    const id = await pendingPayment(user().token);
    const { location } = await renderWithApp(<PaymentResult onRetry={() => {}} pollMs={200} />, {
      url: `/listas?success=true&payment=${id}`,
    });
    await screen.findByTestId('payment-confirming');
    expect(screen.getByText('Confirmando seu pagamento…')).toBeTruthy();
    // Still PENDING after several polls: no success claimed.
    await new Promise((r) => setTimeout(r, 700));
    expect(screen.queryByTestId('payment-success')).toBeNull();

    await finish(id, 'pay'); // the processor confirms (the webhook, here the test checkout)
    await screen.findByTestId('payment-success');
    expect(screen.getByText('Seus créditos foram adicionados com sucesso!')).toBeTruthy();
    expect(screen.getByText('Comece agora mesmo a criar suas campanhas')).toBeTruthy();
    expect(screen.getByTestId('payment-success-convert').textContent).toBe(
      'O valor entrou como saldo: converta-o em créditos de cada canal em Compras.',
    );
    expect(screen.queryByTestId('payment-confirming')).toBeNull();
    await waitFor(() => expect(confetti).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByTestId('payment-success-back'));
    await waitFor(() => expect(location.current).toBe('/listas'));
    expect(screen.queryByTestId('payment-success')).toBeNull();
  });

  it('another user’s payment id: no success modal, even once it is paid', async () => {
    const theirs = await pendingPayment(realApi().userToken, 270);
    await finish(theirs, 'pay');
    const { location } = await renderWithApp(<PaymentResult onRetry={() => {}} pollMs={200} />, {
      url: `/?success=true&payment=${theirs}`,
    });
    await waitFor(() => expect(location.current).toBe('/'));
    expect(screen.queryByTestId('payment-success')).toBeNull();
    expect(screen.queryByTestId('payment-confirming')).toBeNull();
  });

  it('a payment that was canceled shows the cancel modal, not the success one', async () => {
    const id = await pendingPayment(user().token);
    await finish(id, 'cancel');
    await renderWithApp(<PaymentResult onRetry={() => {}} pollMs={200} />, { url: `/?success=true&payment=${id}` });
    await screen.findByTestId('payment-cancel');
    expect(screen.queryByTestId('payment-success')).toBeNull();
  });

  it('stops asking after its time and says the confirmation is late', async () => {
    const id = await pendingPayment(user().token);
    let asked = 0;
    useRealApi(user().token, (path) => {
      if (path === `/api/v1/payments/${id}`) asked++;
      return undefined;
    });
    await renderWithApp(<PaymentResult onRetry={() => {}} pollMs={100} confirmForMs={600} />, {
      url: `/?success=true&payment=${id}`,
    });
    await screen.findByTestId('payment-confirming-late');
    expect(screen.getByText(/A confirmação ainda não chegou/)).toBeTruthy();
    const after = asked;
    await new Promise((r) => setTimeout(r, 500));
    expect(asked).toBe(after);
    expect(screen.queryByTestId('payment-success')).toBeNull();
  });

  it('cancel: "Tentar novamente" closes it and reopens the buy-credits modal', async () => {
    const onRetry = vi.fn();
    const { location } = await renderWithApp(<PaymentResult onRetry={onRetry} />, { url: '/?cancel=true' });
    await screen.findByTestId('payment-cancel');
    expect(screen.getByText('Não foi possível processar o pagamento.')).toBeTruthy();
    expect(screen.getByText('Você pode tentar novamente quando quiser')).toBeTruthy();
    fireEvent.click(screen.getByTestId('payment-cancel-retry'));
    await waitFor(() => expect(onRetry).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(location.current).toBe('/'));
  });

  it('closing waits the spec’s 300 ms close animation before the URL changes and the buy-credits modal opens', async () => {
    const retriedAt: number[] = [];
    const onRetry = vi.fn(() => retriedAt.push(performance.now()));
    const { location } = await renderWithApp(<PaymentResult onRetry={onRetry} />, { url: '/?cancel=true' });
    await screen.findByTestId('payment-cancel');
    const clickedAt = performance.now();
    fireEvent.click(screen.getByTestId('payment-cancel-retry'));
    // While the cancel modal plays its closing animation, nothing opens over it and the URL stays.
    expect(onRetry).not.toHaveBeenCalled();
    expect(location.current).toBe('/?cancel=true');
    await waitFor(() => expect(onRetry).toHaveBeenCalledTimes(1), { timeout: 2000 });
    expect(location.current).toBe('/');
    expect(retriedAt[0]! - clickedAt).toBeGreaterThanOrEqual(MODAL_CLOSE_DELAY_MS - 1);
  });
});
