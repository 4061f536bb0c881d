import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../../public/locales/en.json';
import pt from '../../../public/locales/pt.json';
import { jsonAnswer, realApi, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
import { EndpointFormModal } from './EndpointFormModal';

resetAfterEach();

/** The real API, with the create's POST recorded and answered (the server would check the address's DNS). */
function useRecordedCreates() {
  const posts: unknown[] = [];
  useRealApi(realApi().userToken, (path, init) => {
    if (init?.method !== 'POST' || !path.startsWith('/api/v1/webhook-endpoints')) return undefined;
    posts.push(JSON.parse(String(init.body)));
    return jsonAnswer(400, { message: 'Endereço inválido', code: 'WEBHOOK_URL_INVALID' });
  });
  return posts;
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('the webhook endpoint form', () => {
  it('an address that is not http(s) is refused with the form text, and nothing is sent', async () => {
    const posts = useRecordedCreates();
    await renderWithApp(<EndpointFormModal opened onClose={() => {}} onCreated={() => {}} />, { lng: 'en' });
    type('webhook-url', 'erp.example.com/hooks');
    fireEvent.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText(en.webhooks.form.urlRequired)).toBeTruthy();
    expect(posts).toEqual([]);
  });

  it('no event chosen is refused with the form text, and nothing is sent', async () => {
    const posts = useRecordedCreates();
    await renderWithApp(<EndpointFormModal opened onClose={() => {}} onCreated={() => {}} />);
    type('webhook-url', 'https://erp.example.com/hooks');
    fireEvent.click(screen.getByTestId('webhook-event-message.status'));
    fireEvent.click(screen.getByTestId('webhook-event-message.reply'));
    fireEvent.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText(pt.webhooks.form.eventsRequired)).toBeTruthy();
    expect(screen.queryByText(pt.webhooks.form.urlRequired)).toBeNull();
    expect(posts).toEqual([]);
  });

  it('a valid form is sent trimmed, an empty description left out', async () => {
    const posts = useRecordedCreates();
    await renderWithApp(<EndpointFormModal opened onClose={() => {}} onCreated={() => {}} />);
    type('webhook-url', '  https://erp.example.com/hooks  ');
    type('webhook-description', '   ');
    fireEvent.click(screen.getByTestId('webhook-save'));
    await waitFor(() =>
      expect(posts).toEqual([{ url: 'https://erp.example.com/hooks', events: ['message.status', 'message.reply'] }]),
    );
    expect(await screen.findByTestId('webhook-form-error')).toBeTruthy();
  });
});
