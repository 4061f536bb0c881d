import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../public/locales/en.json';
import { jsonAnswer, realApi, serverCall, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { moneyFormSession } from '../../../test/session.test-support';
import { notify } from '../../platform/notify';
import { platformKeys } from '../../platform/queryKeys';
import { BuyCreditsModal } from './BuyCreditsModal';

const session = moneyFormSession();
vi.mock('../../platform/SessionProvider', () => ({ useSession: () => session }));

type Payment = { id: string; status: string; amount: number };
/** The user's payments on the real server, newest first. */
const payments = async () =>
  (await serverCall<{ items: Payment[] }>(realApi().userToken, 'GET', '/api/v1/payments?pageSize=100')).body.items;
/** Who reached the server's checkout (to show a button never called it). */
let checkoutCalls = 0;
const countCheckouts = (path: string) => {
  if (path === '/api/checkout') checkoutCalls++;
  return undefined;
};

const quantity = () => screen.getByTestId('purchase-quantity') as HTMLInputElement;
const isDisabled = (id: string) => (screen.getByTestId(id) as HTMLButtonElement).disabled;

describe('BuyCreditsModal', () => {
  let open: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    checkoutCalls = 0;
    useRealApi(realApi().userToken, countCheckouts);
    open = vi.spyOn(window, 'open').mockImplementation(() => ({ opener: window }) as unknown as Window);
  });
  afterEach(async () => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('shows the balance; steps by 100 never below 0; digits only; pays only from R$ 270', async () => {
    await renderWithApp(<BuyCreditsModal opened onClose={() => {}} />);
    expect(screen.getByTestId('buy-credits-balance').textContent).toBe('R$\u00a01.234,50');
    expect(quantity().value).toBe('0');
    expect(isDisabled('pay-card')).toBe(true);
    expect(isDisabled('pay-pix')).toBe(true);
    expect(screen.queryByTestId('purchase-minimum-notice')).toBeNull();

    fireEvent.click(screen.getByTestId('purchase-minus'));
    expect(quantity().value).toBe('0');
    fireEvent.click(screen.getByTestId('purchase-plus'));
    expect(quantity().value).toBe('100');
    expect(screen.getByTestId('purchase-minimum-notice').textContent).toBe('Valor mínimo para compra: R$ 270,00');
    expect(screen.getByTestId('purchase-total').textContent).toBe('R$\u00a0100,00');
    expect(isDisabled('pay-card')).toBe(true);

    fireEvent.change(quantity(), { target: { value: '2a7.0' } });
    expect(quantity().value).toBe('270');
    expect(screen.queryByTestId('purchase-minimum-notice')).toBeNull();
    expect(isDisabled('pay-card')).toBe(false);
    expect(isDisabled('pay-pix')).toBe(false);
    expect(screen.getByTestId('purchase-subtotal').textContent).toBe('R$\u00a0270,00');
  });

  it('card above the checkout’s maximum (R$ 100.000): refused in the modal with that limit, nothing sent', async () => {
    const toast = vi.spyOn(notify, 'error').mockImplementation(() => {});
    await renderWithApp(<BuyCreditsModal opened onClose={() => {}} />, { lng: 'en' });
    fireEvent.change(quantity(), { target: { value: '100001' } });
    fireEvent.click(screen.getByTestId('pay-card'));
    await waitFor(() => expect(toast).toHaveBeenCalledWith(en.credits.maximumToast));
    expect(checkoutCalls).toBe(0);
    expect(screen.getByTestId('pay-card').getAttribute('data-state')).toBe('idle');
  });

  it('is not closed by Escape', async () => {
    const onClose = vi.fn();
    await renderWithApp(<BuyCreditsModal opened onClose={onClose} />);
    fireEvent.keyDown(screen.getByTestId('buy-credits-modal'), { key: 'Escape' });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('purchase-back'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('card: creates the checkout, shows the partner dialog, opens the link and goes to /campanhas', async () => {
    const before = new Set((await payments()).map((p) => p.id));
    const { location } = await renderWithApp(<BuyCreditsModal opened onClose={() => {}} />);
    fireEvent.change(quantity(), { target: { value: '317' } });
    fireEvent.click(screen.getByTestId('pay-card'));
    await screen.findByTestId('partner-dialog');
    // The real server stored a pending payment of R$ 317 and answered its (test) checkout page. Other
    // files pay as the same user at the same time (R$ 270 purchases): only this amount is this test's.
    const created = (await payments()).filter((p) => !before.has(p.id) && p.amount === 317);
    expect(created).toEqual([expect.objectContaining({ status: 'PENDING', amount: 317 })]);
    fireEvent.click(screen.getByTestId('partner-continue'));
    expect(open).toHaveBeenCalledWith(`http://localhost:3000/api/checkout/test/${created[0]!.id}`, '_blank');
    await waitFor(() => expect(location.current).toBe('/campanhas'));
  });

  // The shared test server always has its test checkout: the states of a server without card
  // payments, or with its card processor down, are injected at the network (the real client reads them).
  it('card failure: logs the status and sets the failed state, with no message', async () => {
    useRealApi(realApi().userToken, (path) =>
      path === '/api/checkout' ? jsonAnswer(502, { message: 'x', code: 'CHECKOUT_FAILED' }) : undefined,
    );
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderWithApp(<BuyCreditsModal opened onClose={() => {}} />);
    fireEvent.change(quantity(), { target: { value: '300' } });
    fireEvent.click(screen.getByTestId('pay-card'));
    await waitFor(() => expect(screen.getByTestId('pay-card').getAttribute('data-state')).toBe('failed'));
    expect(error).toHaveBeenCalledWith('checkout failed', 502);
    expect(screen.queryByTestId('partner-dialog')).toBeNull();
  });

  it('card payments not configured on the server: the card button says so and cannot be used; PIX still can', async () => {
    useRealApi(realApi().userToken, (path) =>
      path === '/api/v1/checkout/options' ? jsonAnswer(200, { card: 'unavailable' }) : countCheckouts(path),
    );
    await renderWithApp(<BuyCreditsModal opened onClose={() => {}} />);
    fireEvent.change(quantity(), { target: { value: '300' } });
    await waitFor(() =>
      expect(screen.getByTestId('pay-card').textContent).toBe('Pagamento com cartão não configurado'),
    );
    expect(isDisabled('pay-card')).toBe(true);
    expect(isDisabled('pay-pix')).toBe(false);
    fireEvent.click(screen.getByTestId('pay-card'));
    expect(checkoutCalls).toBe(0);
  });

  it('a checkout refused as not configured (the server changed since the page loaded) switches the button too', async () => {
    // The options read (started when the modal opened) answers only after the refusal, with the
    // older word "available": the refusal must still win.
    let answerOptions = () => {};
    const optionsHeld = new Promise<void>((resolve) => (answerOptions = resolve));
    useRealApi(realApi().userToken, (path) => {
      if (path === '/api/checkout') {
        setTimeout(answerOptions, 50);
        return jsonAnswer(503, { message: 'x', code: 'CARD_PAYMENTS_NOT_CONFIGURED' });
      }
      if (path === '/api/v1/checkout/options') return optionsHeld.then(() => jsonAnswer(200, { card: 'available' }));
      return undefined;
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderWithApp(<BuyCreditsModal opened onClose={() => {}} />);
    fireEvent.change(quantity(), { target: { value: '300' } });
    await waitFor(() => expect(screen.getByTestId('pay-card').textContent).toBe('Pagar com cartão de crédito'));
    fireEvent.click(screen.getByTestId('pay-card'));
    await waitFor(() =>
      expect(screen.getByTestId('pay-card').textContent).toBe('Pagamento com cartão não configurado'),
    );
    await optionsHeld;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.getByTestId('pay-card').textContent).toBe('Pagamento com cartão não configurado');
    expect(isDisabled('pay-card')).toBe(true);
  });

  it('PIX: a 500 ms spinner, then the chat link to the served number with the amount and the e-mail', async () => {
    const { queryClient } = await renderWithApp(<BuyCreditsModal opened onClose={() => {}} />);
    await waitFor(() => expect(queryClient.getQueryData(platformKeys.publicConfig)).toBeDefined());
    vi.useFakeTimers();
    fireEvent.change(quantity(), { target: { value: '300' } });
    fireEvent.click(screen.getByTestId('pay-pix'));
    expect(open).not.toHaveBeenCalled();
    vi.advanceTimersByTime(499);
    expect(open).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(open).toHaveBeenCalledTimes(1);
    const url = decodeURIComponent(String(open.mock.calls[0]![0]));
    expect(url).toMatch(/^https:\/\/wa\.me\/5521987654321\?text=/);
    expect(url).toContain('R$\u00a0300,00');
    expect(url).toContain('ana@empresa.com.br');
  });
});
