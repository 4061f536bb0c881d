import type { Reply } from '@ecoa/shared';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { jsonAnswer, realApi, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { AnswerDialog } from './AnswerDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const reply = (over: Partial<Reply>): Reply => ({
  id: '00000000-0000-4000-8000-000000000001',
  phone: '+5511987654321',
  contactName: 'Ana Souza',
  channel: 'sms',
  text: 'Quero saber mais',
  receivedAt: new Date().toISOString(),
  optOut: false,
  handledAt: null,
  campaign: null,
  externalId: null,
  messageId: null,
  answerableUntil: null,
  answerable: true,
  ...over,
});

describe('the answer dialog', () => {
  it('an SMS answer shows what it costs as the text grows (parts of SMS Short)', async () => {
    useRealApi(realApi().userToken);
    await renderWithApp(<AnswerDialog reply={reply({})} onClose={() => {}} />);
    const cost = await screen.findByTestId('answer-cost');
    expect(cost.textContent).toContain('Custa 1 crédito de SMS Short');
    fireEvent.change(screen.getByTestId('answer-text'), { target: { value: 'a'.repeat(200) } });
    expect(screen.getByTestId('answer-cost').textContent).toContain('Custa 2 créditos de SMS Short');
    expect((screen.getByTestId('answer-submit') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a WhatsApp reply past its 24-hour window cannot be answered: the reason shown, sending disabled', async () => {
    const posts: string[] = [];
    useRealApi(realApi().userToken, (path, init) => {
      if (init?.method === 'POST') posts.push(path);
      return undefined;
    });
    const old = new Date(Date.now() - 25 * 3600_000);
    await renderWithApp(
      <AnswerDialog
        reply={reply({
          channel: 'whatsapp',
          receivedAt: old.toISOString(),
          answerableUntil: new Date(old.getTime() + 24 * 3600_000).toISOString(),
          answerable: false,
        })}
        onClose={() => {}}
      />,
    );
    expect((await screen.findByTestId('answer-window-closed')).textContent).toBe(pt.replies.answer.windowClosed);
    expect(screen.queryByTestId('answer-text')).toBeNull();
    const submit = screen.getByTestId('answer-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.click(submit);
    expect(posts).toEqual([]);
  });

  it('sends the answer trimmed, once, and closes; accents removed by the counter are what is sent', async () => {
    const posts: { path: string; body: unknown }[] = [];
    useRealApi(realApi().userToken, (path, init) => {
      if (init?.method !== 'POST') return undefined;
      posts.push({ path, body: JSON.parse(String(init.body)) });
      return jsonAnswer(201, { id: '00000000-0000-4000-8000-0000000000aa' });
    });
    const onClose = vi.fn();
    await renderWithApp(<AnswerDialog reply={reply({})} onClose={onClose} />);
    const submit = (await screen.findByTestId('answer-submit')) as HTMLButtonElement;
    fireEvent.change(screen.getByTestId('answer-text'), { target: { value: '   ' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('answer-text'), { target: { value: '  Olá, já lhe respondo  ' } });
    fireEvent.click(screen.getByTestId('sms-remove-accents'));
    expect((screen.getByTestId('answer-text') as HTMLTextAreaElement).value).toBe('  Ola, ja lhe respondo  ');
    fireEvent.click(submit);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toEqual([
      { path: '/api/v1/replies/00000000-0000-4000-8000-000000000001/answer', body: { text: 'Ola, ja lhe respondo' } },
    ]);
  });
});
