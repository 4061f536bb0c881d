import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
import { TestSendDialog, toRequest } from './TestSendDialog';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const balances = {
  money: 0,
  credits: Object.fromEntries(
    ['BALANCE', 'SMSSHORT', 'SMSFLASH', 'WHATSAPP', 'URA', 'URAINTEGRATION', 'RCS', 'ENRICHED'].map((t) => [
      t,
      { available: t === 'SMSSHORT' ? 15 : 0, reserved: 0 },
    ]),
  ),
};
const delivered = {
  id: 'm-1',
  channel: 'sms_short',
  to: '+5511987654321',
  status: 'delivered',
  parts: 1,
  createdAt: '2026-11-23T12:00:00.000Z',
  events: [
    { status: 'queued', at: '2026-11-23T12:00:00.000Z' },
    { status: 'sent', at: '2026-11-23T12:00:01.000Z' },
    { status: 'delivered', at: '2026-11-23T12:00:02.000Z' },
  ],
};

/** The network as the browser sees it; each test-send POST takes the next outcome. */
function stubNetwork(outcomes: ('lost' | number)[]) {
  const posts: { body: unknown; key: string | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url.includes('/me/profile')) return json(200, { mobilePhone: '11987654321' });
      if (url.includes('/dashboard/balance')) return json(200, balances);
      if (url.includes('/messages/')) return json(200, delivered);
      const headers = init.headers as Record<string, string>;
      posts.push({ body: JSON.parse(String(init.body)), key: headers['Idempotency-Key'] });
      const outcome = outcomes.shift() ?? 201;
      if (outcome === 'lost') throw new TypeError('Failed to fetch');
      if (outcome === 400) {
        return json(400, {
          code: 'INSUFFICIENT_BALANCE',
          message: 'Créditos insuficientes.',
          details: { type: 'SMSSHORT' },
        });
      }
      return json(outcome, { id: 'm-1' });
    }),
  );
  return posts;
}

describe('toRequest', () => {
  const draft = {
    channel: 'sms_short' as const,
    to: '11987654321',
    text: 'Oi',
    voice: { mode: 'tts' as const, tts: 'Olá', audioId: 'a-1' },
    options: '1 2 9',
    integrationUrl: ' https://crm.exemplo.com.br/ura ',
    templateName: 'boas_vindas',
    templateLanguage: 'pt_BR',
    templateParams: 'Ana\n\n Silva \n',
  };

  it('asks each channel for its own content', () => {
    expect(toRequest(draft)).toEqual({ channel: 'sms_short', to: '11987654321', text: 'Oi' });
    expect(toRequest({ ...draft, channel: 'rcs' })).toEqual({ channel: 'rcs', to: '11987654321', rcs: { text: 'Oi' } });
    expect(toRequest({ ...draft, channel: 'voice_torpedo' })).toEqual({
      channel: 'voice_torpedo',
      to: '11987654321',
      tts: 'Olá',
    });
    expect(toRequest({ ...draft, channel: 'voice_torpedo', voice: { ...draft.voice, mode: 'audio' } })).toEqual({
      channel: 'voice_torpedo',
      to: '11987654321',
      audioId: 'a-1',
    });
    expect(toRequest({ ...draft, channel: 'ura' })).toEqual({
      channel: 'ura',
      to: '11987654321',
      tts: 'Olá',
      options: ['1', '2', '9'],
      integrationUrl: 'https://crm.exemplo.com.br/ura',
    });
    expect(toRequest({ ...draft, channel: 'whatsapp' })).toEqual({
      channel: 'whatsapp',
      to: '11987654321',
      template: { name: 'boas_vindas', language: 'pt_BR', params: ['Ana', 'Silva'] },
    });
  });
});

describe('TestSendDialog', () => {
  beforeEach(() => window.localStorage.clear());
  resetAfterEach();

  it('counts the SMS like the server, removes accents, and sends to the user’s own phone', async () => {
    const posts = stubNetwork([201]);
    await renderWithApp(<TestSendDialog opened onClose={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('test-send-to')).toHaveProperty('value', '11987654321'));
    fireEvent.change(screen.getByTestId('test-send-text'), { target: { value: `Promoção ${'ã'.repeat(80)}` } });
    expect(screen.getByTestId('sms-encoding').textContent).toBe('UCS-2');
    expect(screen.getByTestId('sms-parts').textContent).toBe('2 partes');
    fireEvent.click(screen.getByTestId('sms-remove-accents'));
    expect(screen.getByTestId('sms-encoding').textContent).toBe('GSM-7');
    expect(screen.getByTestId('sms-parts').textContent).toBe('1 parte');
    fireEvent.click(screen.getByTestId('test-send-submit'));
    await screen.findByTestId('message-status');
    await waitFor(() => expect(screen.getByTestId('message-status-badge').textContent).toBe('Entregue'));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ channel: 'sms_short', to: '11987654321', text: `Promocao ${'a'.repeat(80)}` });
  });

  it('a retry after a lost answer reuses the Idempotency-Key; the next test gets a new one', async () => {
    const posts = stubNetwork(['lost', 201, 201]);
    await renderWithApp(<TestSendDialog opened onClose={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('test-send-to')).toHaveProperty('value', '11987654321'));
    fireEvent.change(screen.getByTestId('test-send-text'), { target: { value: 'Oi' } });
    fireEvent.click(screen.getByTestId('test-send-submit'));
    await screen.findByTestId('test-send-error');
    fireEvent.click(screen.getByTestId('test-send-submit'));
    await screen.findByTestId('message-status');
    fireEvent.click(screen.getByTestId('test-send-again'));
    fireEvent.click(screen.getByTestId('test-send-submit'));
    await screen.findByTestId('message-status');
    expect(posts).toHaveLength(3);
    expect(posts[0]!.key).toBeTruthy();
    expect(posts[1]!.key).toBe(posts[0]!.key);
    expect(posts[2]!.key).not.toBe(posts[0]!.key);
  });

  it('without credits it says which ones to buy', async () => {
    stubNetwork([400]);
    await renderWithApp(<TestSendDialog opened onClose={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('test-send-to')).toHaveProperty('value', '11987654321'));
    fireEvent.change(screen.getByTestId('test-send-text'), { target: { value: 'Oi' } });
    fireEvent.click(screen.getByTestId('test-send-submit'));
    expect((await screen.findByTestId('test-send-error')).textContent).toBe(
      'Você não tem créditos de SMS Short suficientes. Compre ou transfira créditos e tente de novo.',
    );
  });

  it('a request the server’s schema refuses is not sent: its refusal shows in the server’s words until the next try', async () => {
    const posts = stubNetwork([201]);
    await renderWithApp(<TestSendDialog opened onClose={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('test-send-to')).toHaveProperty('value', '11987654321'));
    fireEvent.click(screen.getByTestId('test-send-submit'));
    expect((await screen.findByTestId('test-send-error')).textContent).toBe(pt.errors.codes.VALIDATION_FAILED);
    expect(posts).toEqual([]);
    fireEvent.change(screen.getByTestId('test-send-text'), { target: { value: 'Oi' } });
    fireEvent.click(screen.getByTestId('test-send-submit'));
    await screen.findByTestId('message-status');
    expect(posts.map((p) => p.body)).toEqual([{ channel: 'sms_short', to: '11987654321', text: 'Oi' }]);
  });
});
