import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { draftCampaignOnServer, jsonAnswer, realApi, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { CampaignDetailPage } from './CampaignDetailPage';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../platform/notify', () => ({ notify: toast }));

/** Issue 21: a campaign page's "Duplicar" against the real server — a refusal is said, a copy opens as a draft. */
describe("a campaign page's duplicate", () => {
  let id = '';
  beforeAll(async () => {
    id = await draftCampaignOnServer('Campanha para duplicar');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    toast.error.mockClear();
  });

  const page = () =>
    renderWithApp(
      <Routes>
        <Route path="/campanhas/:id" element={<CampaignDetailPage />} />
        <Route path="/campanhas/criar-campanha" element={<p data-testid="wizard">wizard</p>} />
      </Routes>,
      { url: `/campanhas/${id}` },
    );

  it('says why the server refused it, translated by its code, and stays on the page', async () => {
    useRealApi(realApi().userToken, (path, init) =>
      path.endsWith('/duplicate') && init?.method === 'POST'
        ? jsonAnswer(404, { code: 'CAMPAIGN_NOT_FOUND', message: 'texto do servidor' })
        : undefined,
    );
    const { location } = await page();
    fireEvent.click(await screen.findByText('Duplicar'));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Campanha não encontrada.'));
    expect(location.current).toBe(`/campanhas/${id}`);
  });

  it('opens the copy as a draft in the wizard', async () => {
    useRealApi(realApi().userToken);
    const { location } = await page();
    fireEvent.click(await screen.findByText('Duplicar'));
    await waitFor(() => expect(location.current).toMatch(/^\/campanhas\/criar-campanha\?rascunho=[0-9a-f-]{36}$/));
    expect(toast.error).not.toHaveBeenCalled();
  });
});
