import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { realApi, useRealApi } from '../../../test/real-api.test-support';
import { resetAfterEach } from '../../../test/render.test-support';
import { renderSignedIn } from '../../../test/signed-in.test-support';
import { creditsKeys } from '../credits/queryKeys';
import { AdminLinksPage } from '../links/AdminLinksPage';

/** The signed-in frame on the real server, around `page` (or a page that shows nothing of its own). */
async function renderFrame(url: string, page = <p data-testid="plain-page">…</p>) {
  return renderSignedIn(
    <>
      <Route path="/links" element={<AdminLinksPage />} />
      <Route path="*" element={page} />
    </>,
    url,
  );
}

describe('the signed-in frame (real server)', () => {
  resetAfterEach();

  it("an administrator reaches /links from the sidebar's own entry", async () => {
    useRealApi(realApi().adminToken);
    const { location } = await renderFrame('/usuarios');
    const entry = await screen.findByTestId('nav-linksPerUser');
    expect(entry.textContent).toContain(pt.nav.links);
    fireEvent.click(entry);
    await waitFor(() => expect(location.current).toBe('/links'));
    expect(await screen.findByRole('heading', { name: pt.adminLinks.title })).toBeTruthy();
    expect(entry.getAttribute('aria-current')).toBe('page');
  });

  it('a regular user sees no way to /links', async () => {
    useRealApi(realApi().userToken);
    await renderFrame('/listas');
    await screen.findByTestId('nav-lists');
    expect(screen.queryByTestId('nav-linksPerUser')).toBeNull();
    expect(document.querySelector('a[href="/links"]')).toBeNull();
  });

  it('reads dashboard-balance on every signed-in load, also on a page that shows no money of its own', async () => {
    const balanceReads: string[] = [];
    useRealApi(realApi().userToken, (path) => {
      if (path.startsWith('/api/v1/dashboard/balance')) balanceReads.push(path);
      return undefined;
    });
    const { queryClient } = await renderFrame('/listas');
    await screen.findByTestId('plain-page');
    await waitFor(() => expect(queryClient.getQueryState(creditsKeys.balance)?.status).toBe('success'));
    expect(balanceReads).toEqual(['/api/v1/dashboard/balance']);
  });
});
