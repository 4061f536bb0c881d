import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { balanceOf } from '../../../test/money-setup.test-support';
import { realApi, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { SessionProvider } from '../../platform/SessionProvider';
import { UserDrawer } from './UserDrawer';

const brl = (reais: number) => reais.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/** The administrator's drawer on the real server: both balances it shows follow what was recorded. */
describe('UserDrawer money (real server)', () => {
  const user = realApi().spareUsers[3]!;
  beforeEach(() => useRealApi(realApi().adminToken));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('a payment recorded in the drawer shows in its header as well as in the credits component', async () => {
    const before = (await balanceOf(user.token)).money;
    await renderWithApp(
      <SessionProvider>
        <UserDrawer userId={user.id} onClose={() => {}} />
      </SessionProvider>,
    );
    const header = await screen.findByTestId('user-drawer-header');
    await waitFor(() => expect(header.textContent).toContain(`Saldo ${brl(before)}`));

    fireEvent.change(screen.getByTestId('admin-payment-amount'), { target: { value: '270,5' } });
    fireEvent.change(screen.getByTestId('admin-payment-reason'), { target: { value: 'PIX do dia 10' } });
    fireEvent.click(screen.getByTestId('admin-payment-submit'));

    const after = before + 270.5;
    await waitFor(() => expect(screen.getByTestId('admin-balance-BALANCE').textContent).toContain(brl(after).slice(3)));
    await waitFor(() => expect(screen.getByTestId('user-drawer-header').textContent).toContain(`Saldo ${brl(after)}`));
    expect((await balanceOf(user.token)).money).toBeCloseTo(after, 2);
  });
});
