import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { realApi, serverCall, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp, resetAfterEach, withGlobalPtTexts } from '../../../test/render.test-support';
import { ListsPage } from './ListsPage';

/** A list of the test user's, uploaded through the real server (it stays importing: no jobs run here). */
async function uploadList(name: string): Promise<string> {
  // Written by hand: jsdom's FormData and Blob are not the ones Node's fetch sends.
  const boundary = 'ecoa-test-boundary';
  const body = [
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contatos.csv"\r\n`,
    'Content-Type: text/csv\r\n\r\ntelefone\n11987654321\n\r\n',
    `--${boundary}--\r\n`,
  ].join('');
  const res = await fetch(`${realApi().url}/api/v1/lists`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${realApi().userToken}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('renaming a list', () => {
  withGlobalPtTexts();
  resetAfterEach();

  it('a failed rename keeps the typed name and says why in the dialog; a retry saves it', async () => {
    const id = await uploadList('Clientes antigos');
    let failing = true;
    useRealApi(realApi().userToken, (path, init) =>
      failing && init?.method === 'PATCH' && path.startsWith(`/api/v1/lists/${id}`)
        ? Promise.reject(new TypeError('fetch failed'))
        : undefined,
    );
    await renderWithApp(<ListsPage />);
    const row = await screen.findByTestId(`list-row-${id}`);
    fireEvent.click(within(row).getByTestId('list-menu'));
    fireEvent.click(await screen.findByTestId('action-rename'));
    const input = (await screen.findByTestId('rename-input')) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'Clientes VIP de São Paulo' } });
    fireEvent.click(screen.getByTestId('confirm-rename'));

    expect((await screen.findByTestId('prompt-error')).textContent).toBe(pt.errors.network);
    expect((screen.getByTestId('rename-input') as HTMLInputElement).value).toBe('Clientes VIP de São Paulo');

    failing = false;
    fireEvent.click(screen.getByTestId('confirm-rename'));
    await waitFor(() => expect(screen.queryByTestId('rename-input')).toBeNull());
    const saved = await serverCall<{ name: string }>(realApi().userToken, 'GET', `/api/v1/lists/${id}`);
    expect(saved.body.name).toBe('Clientes VIP de São Paulo');
  });
});
