import { formatBrazilianPhone } from '@ecoa/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { realApi, serverCall, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
import { OptOutsPanel } from './OptOutsPanel';

resetAfterEach();

const panel = () => renderWithApp(<OptOutsPanel />);

/** A mobile number of its own for each run (the test user is shared). */
const uniquePhone = () => `119${String(Date.now() % 100_000_000).padStart(8, '0')}`;

describe('opt-outs', () => {
  it('more than 1,000 pasted numbers are refused with the limit named, the text kept and nothing sent', async () => {
    const posts: string[] = [];
    useRealApi(realApi().userToken, (path, init) => {
      if (init?.method === 'POST' && path.startsWith('/api/v1/opt-outs')) posts.push(path);
      return undefined;
    });
    await panel();
    const pasted = Array.from({ length: 1_001 }, (_, i) => `1198${String(i).padStart(7, '0')}`).join('\n');
    const input = (await screen.findByTestId('opt-out-input')) as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: pasted } });
    fireEvent.click(screen.getByTestId('opt-out-add'));

    const error = await screen.findByText(/1\.000/);
    expect(error.textContent).toContain('1.001');
    expect((screen.getByTestId('opt-out-input') as HTMLTextAreaElement).value).toBe(pasted);
    expect(posts).toEqual([]);
  });

  it('removing an opt-out asks first: cancel keeps it, confirm removes it', async () => {
    const phone = uniquePhone();
    const added = await serverCall<{ added: number }>(realApi().userToken, 'POST', '/api/v1/opt-outs', {
      phones: [phone],
    });
    expect(added.body.added).toBe(1);
    const e164 = `+55${phone}`;
    const listed = async () =>
      (await serverCall<{ items: { phone: string }[] }>(realApi().userToken, 'GET', `/api/v1/opt-outs?search=${phone}`))
        .body.items;
    useRealApi(realApi().userToken);
    await panel();
    fireEvent.change(await screen.findByTestId('opt-out-search'), { target: { value: phone } });
    const row = (await screen.findByText(formatBrazilianPhone(e164))).closest('tr')!;

    fireEvent.click(within(row).getByRole('button', { name: pt.optOuts.remove }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(formatBrazilianPhone(e164));
    fireEvent.click(within(dialog).getByRole('button', { name: pt.optOuts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await listed()).toHaveLength(1);

    fireEvent.click(within(row).getByRole('button', { name: pt.optOuts.remove }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: pt.optOuts.removeConfirm }));
    await waitFor(async () => expect(await listed()).toHaveLength(0));
  });
});
