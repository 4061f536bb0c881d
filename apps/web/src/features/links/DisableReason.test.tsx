import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { realApi, serverCall, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
import { AdminLinksPage } from './AdminLinksPage';

resetAfterEach();

describe("an administrator's disable-with-reason dialog", () => {
  it('a failed disable keeps the typed reason and says why in the dialog; a retry disables the link', async () => {
    const slug = `motivo-${Date.now().toString(36)}`;
    const created = await serverCall<{ id: string }>(realApi().userToken, 'POST', '/api/v1/rotating-links', {
      name: `Link ${slug}`,
      slug,
      targets: [{ kind: 'url', url: 'https://a.example.com' }],
    });
    expect(created.status).toBe(201);
    let failing = true;
    useRealApi(realApi().adminToken, (path, init) =>
      failing && init?.method === 'PATCH' && path.startsWith('/api/v1/admin/links/')
        ? new Response(JSON.stringify({ code: 'INTERNAL', message: 'Algo deu errado.' }), { status: 500 })
        : undefined,
    );
    await renderWithApp(<AdminLinksPage />);
    fireEvent.change(await screen.findByPlaceholderText(pt.adminLinks.search), { target: { value: slug } });
    await screen.findByText(`Link ${slug}`);
    fireEvent.click(await screen.findByTestId('admin-link-disable'));
    const reason = 'Denúncia de golpe recebida pelo suporte em 26/11';
    fireEvent.change(await screen.findByTestId('disable-reason'), { target: { value: reason } });
    fireEvent.click(screen.getByTestId('confirm-disable'));

    expect((await screen.findByTestId('prompt-error')).textContent).toBe(pt.errors.server);
    expect((screen.getByTestId('disable-reason') as HTMLTextAreaElement).value).toBe(reason);

    failing = false;
    fireEvent.click(screen.getByTestId('confirm-disable'));
    await waitFor(() => expect(screen.queryByTestId('disable-reason')).toBeNull());
    const after = await serverCall<{ items: { id: string; disabled: boolean; disabledReason: string | null }[] }>(
      realApi().adminToken,
      'GET',
      `/api/v1/admin/links?q=${slug}`,
    );
    expect(after.body.items.find((l) => l.id === created.body.id)).toMatchObject({
      disabled: true,
      disabledReason: reason,
    });
  });
});
