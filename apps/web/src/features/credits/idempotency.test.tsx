import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
import { moneyFormSession } from '../../../test/session.test-support';
import { AdminUserCredits } from '../admin-users/AdminUserCredits';
import { TransferForm } from './TransferForm';

const session = moneyFormSession();
vi.mock('../../platform/SessionProvider', () => ({ useSession: () => session }));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const emptyPage = { items: [], total: 0, page: 1, pageSize: 10 };
const balances = {
  money: 10,
  credits: Object.fromEntries(
    ['BALANCE', 'SMSSHORT', 'SMSFLASH', 'WHATSAPP', 'URA', 'URAINTEGRATION', 'RCS', 'ENRICHED'].map((t) => [
      t,
      { available: t === 'BALANCE' ? 10 : 0, reserved: 0 },
    ]),
  ),
};

/**
 * The network as the browser sees it: the real API client and `fetch`. Each POST takes the next
 * outcome: `lost` is an answer that never arrives (the server may have applied it), or a status.
 */
function stubNetwork(outcomes: ('lost' | number)[], answer: unknown) {
  const posts: { url: string; key: string | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (init.method !== 'POST') return json(200, url.includes('/balance') ? balances : emptyPage);
      const headers = init.headers as Record<string, string>;
      posts.push({ url, key: headers['Idempotency-Key'] });
      const outcome = outcomes.shift() ?? 201;
      if (outcome === 'lost') throw new TypeError('Failed to fetch');
      return json(outcome, answer);
    }),
  );
  return posts;
}

describe('money forms send one Idempotency-Key per submission', () => {
  beforeEach(() => window.localStorage.clear());
  resetAfterEach();

  it('an administrator’s payment: the retry after a lost answer reuses the key; the next payment gets a new one', async () => {
    const posts = stubNetwork(['lost', 201, 201], { payment: {}, entry: null, money: 280.5 });
    await renderWithApp(<AdminUserCredits userId="u-1" />);
    await screen.findByText('R$ 10,00');
    const fill = () => {
      fireEvent.change(screen.getByTestId('admin-payment-amount'), { target: { value: '270,5' } });
      fireEvent.change(screen.getByTestId('admin-payment-reason'), { target: { value: 'PIX do dia 10' } });
    };
    const submit = async (count: number) => {
      fireEvent.click(screen.getByTestId('admin-payment-submit'));
      await waitFor(() => expect(posts).toHaveLength(count));
      await waitFor(() => expect(screen.getByTestId('admin-payment-submit').hasAttribute('data-loading')).toBe(false));
    };
    fill();
    await submit(1);
    await submit(2); // the administrator clicks again: the same submission
    fill(); // the form was reset by the success: a new payment of the same amount
    await submit(3);
    expect(posts.map((p) => p.url)).toEqual(Array(3).fill('/api/v1/admin/users/u-1/payments'));
    expect(posts[0]!.key).toMatch(UUID);
    expect(posts[1]!.key).toBe(posts[0]!.key);
    expect(posts[2]!.key).toMatch(UUID);
    expect(posts[2]!.key).not.toBe(posts[0]!.key);
  });

  it('an administrator’s adjustment: the same key while the values stay, a new one when they change', async () => {
    const posts = stubNetwork(['lost', 'lost', 201], { entry: {}, balance: { available: 0, reserved: 0 } });
    await renderWithApp(<AdminUserCredits userId="u-2" />);
    fireEvent.click(screen.getByTestId('admin-adjust-type'));
    fireEvent.click(await screen.findByRole('option', { name: 'Saldo' }));
    fireEvent.change(screen.getByTestId('admin-adjust-amount'), { target: { value: '-20' } });
    fireEvent.change(screen.getByTestId('admin-adjust-reason'), { target: { value: 'estorno' } });
    fireEvent.click(screen.getByTestId('admin-adjust-submit'));
    await waitFor(() => expect(posts).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('admin-adjust-submit').hasAttribute('data-loading')).toBe(false));
    // Another amount is another adjustment: it must not replay (or be refused as) the first.
    fireEvent.change(screen.getByTestId('admin-adjust-amount'), { target: { value: '-25' } });
    fireEvent.click(screen.getByTestId('admin-adjust-submit'));
    await waitFor(() => expect(posts).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('admin-adjust-submit').hasAttribute('data-loading')).toBe(false));
    fireEvent.click(screen.getByTestId('admin-adjust-submit'));
    await waitFor(() => expect(posts).toHaveLength(3));
    expect(posts[0]!.url).toBe('/api/v1/admin/users/u-2/adjustments');
    expect(posts[0]!.key).toMatch(UUID);
    expect(posts[1]!.key).not.toBe(posts[0]!.key);
    expect(posts[2]!.key).toBe(posts[1]!.key);
  });

  it('a transfer from balance (the buy-credits modal’s second tab): a retried conversion keeps its key', async () => {
    const posts = stubNetwork(['lost', 200, 200], {
      transferId: 't',
      type: 'SMSSHORT',
      amount: 100,
      unitPrice: 0.085,
      cost: 8.5,
      money: 1226,
      credits: { available: 115, reserved: 0 },
    });
    await renderWithApp(<TransferForm />);
    const convert = async (count: number) => {
      fireEvent.change(screen.getByTestId('transfer-quantity-SMSSHORT'), { target: { value: '100' } });
      fireEvent.click(screen.getByTestId('transfer-submit-SMSSHORT'));
      await waitFor(() => expect(posts).toHaveLength(count));
      await waitFor(() =>
        expect(screen.getByTestId('transfer-submit-SMSSHORT').hasAttribute('data-loading')).toBe(false),
      );
    };
    await convert(1);
    await convert(2);
    await convert(3); // after the success: a new conversion of the same quantity
    expect(posts[0]!.url).toBe('/api/v1/credits/transfer');
    expect(posts[0]!.key).toMatch(UUID);
    expect(posts[1]!.key).toBe(posts[0]!.key);
    expect(posts[2]!.key).not.toBe(posts[0]!.key);
  });
});
