import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordPix, setPrices } from '../../../test/money-setup.test-support';
import { realApi, useRealApi } from '../../../test/real-api.test-support';
import { resetAfterEach } from '../../../test/render.test-support';
import { renderSignedIn } from '../../../test/signed-in.test-support';
import { TransferForm } from './TransferForm';

const header = () => screen.getByTestId('header-balance').textContent;
const rowError = () => screen.queryByText('Quantidade inválida');
const submitDisabled = () => screen.getByTestId('transfer-submit-SMSSHORT').hasAttribute('disabled');

/** The tab comes back to the front (another tab paid, an administrator recorded a PIX meanwhile). */
function tabComesBack() {
  act(() => {
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });
}

/**
 * The signed-in frame on the real server: the header's balance and the conversion rows read the
 * same money, which follows what the server holds without a reload.
 */
describe('the session’s money (real server)', () => {
  const user = realApi().spareUsers[1]!;
  beforeAll(() => setPrices(user.id, { smsShort: 0.1 }));
  beforeEach(() => useRealApi(user.token));
  resetAfterEach();

  it('a PIX recorded elsewhere shows in the header and the conversion rows when the tab comes back; a conversion updates both', async () => {
    await renderSignedIn(<Route path="*" element={<TransferForm />} />, '/compras');
    await waitFor(() => expect(header()).toBe('R$\u00a00,00'));
    fireEvent.change(screen.getByTestId('transfer-quantity-SMSSHORT'), { target: { value: '1000' } });
    // The row's rules run as typed (the form's resolver answers a moment later).
    await waitFor(() => expect(rowError()).not.toBeNull());
    expect(submitDisabled()).toBe(true);

    // An administrator records a PIX of R$ 300 while this tab is in the background.
    await recordPix(user.id, 300);
    tabComesBack();
    await waitFor(() => expect(header()).toBe('R$\u00a0300,00'));
    await waitFor(() => expect(rowError()).toBeNull());
    expect(submitDisabled()).toBe(false);

    // Converting R$ 100 of it: the header follows at once.
    fireEvent.click(screen.getByTestId('transfer-submit-SMSSHORT'));
    await waitFor(() => expect(header()).toBe('R$\u00a0200,00'));
  });
});
