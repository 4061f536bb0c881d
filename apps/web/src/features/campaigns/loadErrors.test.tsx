import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { draftCampaignOnServer, jsonAnswer, realApi, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { DashboardPage } from '../dashboard/DashboardPage';
import { ListsPage } from '../lists/ListsPage';
import { CampaignRecipients } from './CampaignRecipients';
import { CampaignsBrowser } from './CampaignsBrowser';
import { CampaignTimelineChart } from './CampaignTimelineChart';

// The signed-in frame the dashboard reads its greeting and buy button from (not an API module).
vi.mock('../../platform/SessionProvider', () => ({
  useSession: () => ({ user: { id: 'u-1', name: 'Ana', balance: { money: 0 } }, refreshUser: vi.fn() }),
}));
vi.mock('../credits/CreditsProvider', () => ({ useCredits: () => ({ openBuyCredits: vi.fn() }) }));

/**
 * Issue 21: a read that fails says so, with "Tentar de novo", and never looks like real zeros or
 * an empty account. The real server answers; its failure is injected at the network, once.
 */
function useApiFailingOnce(prefix: string) {
  let failures = 1;
  useRealApi(realApi().userToken, (path) => {
    if (path.startsWith(prefix) && failures > 0) {
      failures--;
      return jsonAnswer(500, { message: 'boom', code: 'INTERNAL' });
    }
    return undefined;
  });
}

describe('failed loads', () => {
  let draftId = '';
  beforeAll(async () => {
    draftId = await draftCampaignOnServer('Rascunho para os painéis');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('the campaigns list shows the error alone, not "no campaigns yet", and loads on retry', async () => {
    useApiFailingOnce('/api/v1/campaigns?');
    await renderWithApp(<CampaignsBrowser />);
    const error = await screen.findByRole('alert');
    expect(error.textContent).toContain('Não foi possível carregar as campanhas.');
    expect(screen.queryByTestId('campaigns-empty')).toBeNull();
    fireEvent.click(within(error).getByText('Tentar de novo'));
    await waitFor(() => expect(screen.queryByTestId('campaigns-error')).toBeNull());
    // The user's draft is there once the list loads.
    expect(await screen.findByText('Rascunho para os painéis')).toBeTruthy();
  });

  it("a campaign's recipients and chart say they failed, not that there is nothing", async () => {
    useApiFailingOnce(`/api/v1/campaigns/${draftId}/messages`);
    await renderWithApp(<CampaignRecipients id={draftId} interval={false} tracked={false} />);
    const error = await screen.findByTestId('recipients-error');
    expect(error.textContent).toContain('Não foi possível carregar os destinatários.');
    expect(screen.queryByText('Nenhum destinatário com este filtro.')).toBeNull();
    cleanup();

    useApiFailingOnce(`/api/v1/campaigns/${draftId}/timeline`);
    await renderWithApp(<CampaignTimelineChart id={draftId} interval={false} />);
    expect((await screen.findByTestId('campaign-timeline-error')).textContent).toContain(
      'Não foi possível carregar o gráfico.',
    );
    expect(screen.getByTestId('campaign-timeline').textContent).not.toContain('Nada enviado ainda.');
    fireEvent.click(screen.getByText('Tentar de novo'));
    await waitFor(() => expect(screen.queryByTestId('campaign-timeline-error')).toBeNull());
  });

  it('the dashboard shows no zeros for figures it could not read', async () => {
    useApiFailingOnce('/api/v1/dashboard/summary');
    await renderWithApp(<DashboardPage />);
    expect((await screen.findByTestId('dashboard-error')).textContent).toContain(
      'Não foi possível carregar os números do painel.',
    );
    expect(screen.getByTestId('dashboard-sent').textContent).toBe('—');
    expect(screen.getByTestId('dashboard-delivered').textContent).toBe('—');
    fireEvent.click(within(screen.getByTestId('dashboard-error')).getByText('Tentar de novo'));
    await waitFor(() => expect(screen.getByTestId('dashboard-sent').textContent).toMatch(/^\d/));
  });

  it('the lists page says it could not load, with a retry', async () => {
    useApiFailingOnce('/api/v1/lists?');
    await renderWithApp(<ListsPage />);
    const error = await screen.findByRole('alert');
    expect(error.textContent).toContain('Não foi possível carregar as listas.');
    fireEvent.click(within(error).getByText('Tentar de novo'));
    await waitFor(() => expect(screen.queryByTestId('lists-error')).toBeNull());
  });
});
