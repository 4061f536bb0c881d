import type { Campaign } from '@ecoa/shared';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  draftCampaignOnServer,
  jsonAnswer,
  realApi,
  serverCall,
  useRealApi,
} from '../../../../test/real-api.test-support';
import { renderWithApp } from '../../../../test/render.test-support';
import { CreateCampaignPage } from './CreateCampaignPage';
import { toSaoPauloLocal } from './draft';

vi.mock('../../../platform/SessionProvider', () => ({ useSession: () => ({ refreshUser: vi.fn() }) }));
vi.mock('../../credits/CreditsProvider', () => ({ useCredits: () => ({ openBuyCredits: vi.fn() }) }));

type Sent = { method: string; path: string; body: unknown };

/**
 * A draft on the real server. Its list id is one the server does not know: the wizard only needs
 * a list chosen to go on (the web tests' server runs no imports), and nothing here starts it.
 */
const draftOnServer = (token: string, name: string) =>
  draftCampaignOnServer(name, { listIds: [crypto.randomUUID()], content: { text: 'Olá {nome}' } }, token);

/** The app's real client on the real server; every call this screen makes is recorded. */
function useWatchedApi(token: string, fault?: (path: string, method: string) => Response | undefined): Sent[] {
  const sent: Sent[] = [];
  useRealApi(token, (path, init) => {
    const method = init?.method ?? 'GET';
    sent.push({ method, path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    return fault?.(path, method);
  });
  return sent;
}

/** The wizard on screen, or not: leaving and coming back keeps the app's query cache, as in the app. */
function Reopenable() {
  const [open, setOpen] = useState(true);
  return open ? (
    <>
      <button type="button" onClick={() => setOpen(false)}>
        sair
      </button>
      <CreateCampaignPage />
    </>
  ) : (
    <button type="button" onClick={() => setOpen(true)}>
      abrir
    </button>
  );
}

const nameField = () => screen.findByTestId('wizard-name') as Promise<HTMLInputElement>;
const next = () => fireEvent.click(screen.getByTestId('wizard-next'));
/** The recipients step (no list of this user is ready: the web tests' server imports nothing). */
const recipientsStep = () => screen.findByTestId('wizard-no-lists');
const whenStep = () => screen.findByTestId('wizard-when');

describe('CreateCampaignPage (real server)', () => {
  const { userToken } = realApi();
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('refuses a schedule with no date or a past one on the field, sending nothing; a future one reaches the review', async () => {
    const id = await draftOnServer(userToken, 'Agendada');
    const sent = useWatchedApi(userToken);
    await renderWithApp(<CreateCampaignPage />, { url: `/?rascunho=${id}` });
    expect((await nameField()).value).toBe('Agendada');
    for (const step of [recipientsStep, () => screen.findByTestId('campaign-text'), whenStep]) {
      next();
      await step();
    }
    fireEvent.click(screen.getByLabelText('Agendar'));
    const saves = () => sent.filter((s) => s.method === 'PATCH').length;
    const before = saves();

    next(); // no date
    expect(await screen.findByText('Escolha a data e a hora do agendamento.')).toBeTruthy();
    expect(screen.getByTestId('wizard-when')).toBeTruthy();

    fireEvent.change(screen.getByTestId('wizard-schedule-at'), { target: { value: '2020-01-06T10:00' } });
    next(); // in the past
    expect(await screen.findByText('Esta data e hora já passaram. Escolha um momento futuro.')).toBeTruthy();
    expect(screen.getByTestId('wizard-when')).toBeTruthy();
    expect(saves()).toBe(before);
    const kept = await serverCall<Campaign>(userToken, 'GET', `/api/v1/campaigns/${id}`);
    expect(kept.body).toMatchObject({ status: 'DRAFT', scheduledAt: null });

    // Tomorrow at 09:30 (São Paulo): saved, and the review, the button and the draft agree.
    const tomorrow = toSaoPauloLocal(new Date(Date.now() + 86_400_000).toISOString()).slice(0, 10);
    fireEvent.change(screen.getByTestId('wizard-schedule-at'), { target: { value: `${tomorrow}T09:30` } });
    next();
    const review = await screen.findByTestId('review-when');
    const [y, m, d] = tomorrow.split('-');
    expect(review.textContent).toContain(`Envio em ${d}/${m}/${y}, 09:30 (horário de Brasília)`);
    expect(screen.getByTestId('wizard-start').textContent).toBe('Agendar campanha');
    const saved = await serverCall<Campaign>(userToken, 'GET', `/api/v1/campaigns/${id}`);
    expect(saved.body.scheduledAt).toBe(new Date(`${tomorrow}T09:30:00-03:00`).toISOString());
  });

  it("reopens a draft with the server's current version, and saves over that, not over what it showed before", async () => {
    const id = await draftOnServer(userToken, 'Primeira versão');
    useWatchedApi(userToken);
    await renderWithApp(<Reopenable />, { url: `/?rascunho=${id}` });
    expect((await nameField()).value).toBe('Primeira versão');
    fireEvent.click(screen.getByText('sair'));

    // Edited elsewhere (another tab, a colleague) while the wizard was closed.
    const edited = await serverCall(userToken, 'PATCH', `/api/v1/campaigns/${id}`, { name: 'Editada em outra aba' });
    expect(edited.status).toBe(200);

    fireEvent.click(screen.getByText('abrir'));
    expect((await nameField()).value).toBe('Editada em outra aba');
    next();
    await recipientsStep();
    const saved = await serverCall<Campaign>(userToken, 'GET', `/api/v1/campaigns/${id}`);
    expect(saved.body.name).toBe('Editada em outra aba');
  });

  it('shows a failed load with its reason and "try again", never a blank form that could be saved', async () => {
    const id = await draftOnServer(userToken, 'Carrega depois');
    let failing = true;
    const sent = useWatchedApi(userToken, (path, method) =>
      failing && method === 'GET' && path === `/api/v1/campaigns/${id}`
        ? jsonAnswer(503, { code: 'UNAVAILABLE', message: 'Serviço indisponível.' })
        : undefined,
    );
    await renderWithApp(<CreateCampaignPage />, { url: `/?rascunho=${id}` });
    const alert = await screen.findByTestId('campaign-wizard-load-error');
    expect(alert.textContent).toContain('Não foi possível carregar o rascunho.');
    expect(screen.queryByTestId('wizard-name')).toBeNull();
    expect(screen.queryByTestId('wizard-next')).toBeNull();

    failing = false;
    fireEvent.click(screen.getByText('Tentar de novo'));
    expect((await nameField()).value).toBe('Carrega depois');
    expect(sent.filter((s) => s.method !== 'GET')).toEqual([]);
  });

  it("shows the server's refusal on the date field when this browser's clock runs behind (a date already past)", async () => {
    const id = await draftOnServer(userToken, 'Relógio atrasado');
    const sent = useWatchedApi(userToken);
    // The browser's clock 10 minutes behind the server's: a time 5 minutes "ahead" has passed.
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() - 10 * 60_000);
    try {
      await renderWithApp(<CreateCampaignPage />, { url: `/?rascunho=${id}` });
      await nameField();
      for (const step of [recipientsStep, () => screen.findByTestId('campaign-text'), whenStep]) {
        next();
        await step();
      }
      fireEvent.click(screen.getByLabelText('Agendar'));
      const fiveMinutesAgo = toSaoPauloLocal(new Date(realNow() - 5 * 60_000).toISOString());
      fireEvent.change(screen.getByTestId('wizard-schedule-at'), { target: { value: fiveMinutesAgo } });
      next();
      expect(await screen.findByText('Esta data e hora já passaram. Escolha um momento futuro.')).toBeTruthy();
      expect(screen.getByTestId('wizard-when')).toBeTruthy();
      expect(screen.queryByTestId('wizard-error')).toBeNull();
      const refused = sent.filter((s) => s.method === 'PATCH' && (s.body as { schedule?: string }).schedule);
      expect(refused).toHaveLength(1);
      const kept = await serverCall<Campaign>(userToken, 'GET', `/api/v1/campaigns/${id}`);
      expect(kept.body).toMatchObject({ status: 'DRAFT', scheduledAt: null });
    } finally {
      vi.restoreAllMocks();
    }
  });
});
