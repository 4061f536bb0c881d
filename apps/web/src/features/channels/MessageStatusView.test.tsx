import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonAnswer, realApi, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { MessageStatusView, messagePollInterval } from './MessageStatusView';

/** A real test send of the web tests' user (paid with the welcome credits), its message id. */
async function realTestSend(token: string): Promise<string> {
  const res = await fetch(`${realApi().url}/api/v1/channels/test-send`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': `status-view-${Date.now()}-${Math.random()}`,
    },
    body: JSON.stringify({ channel: 'sms_short', to: '11987654321', text: 'Oi' }),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return ((await res.json()) as { id: string }).id;
}

describe('messagePollInterval', () => {
  it('asks each second at first, then less and less often while no receipt comes', () => {
    const sent = Date.parse('2026-11-24T12:00:00Z');
    const at = (seconds: number) => sent + seconds * 1000;
    const created = new Date(sent).toISOString();
    expect(messagePollInterval(created, at(5))).toBe(1_000);
    expect(messagePollInterval(created, at(60))).toBe(5_000);
    expect(messagePollInterval(created, at(3_600))).toBe(30_000);
  });
});

describe('MessageStatusView', () => {
  let messageId = '';
  beforeAll(async () => {
    messageId = await realTestSend(realApi().userToken);
  });
  afterEach(() => {
    vi.useRealTimers();
    cleanup();
    vi.unstubAllGlobals();
  });

  it('a failed status read stops the spinner and the polling, says so (translated) and retries on demand', async () => {
    // The server failing, injected at the network (the shared server cannot be made to).
    let failing = true;
    let reads = 0;
    useRealApi(realApi().userToken, (path) => {
      if (!path.startsWith(`/api/v1/messages/${messageId}`)) return undefined;
      reads++;
      return failing ? jsonAnswer(500, { message: 'boom', code: 'INTERNAL' }) : undefined;
    });
    // The page's clock is ours (it still runs, for the network): the polling's timers are made on it.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await renderWithApp(<MessageStatusView id={messageId} />);
    const error = await screen.findByTestId('message-status-error');
    expect(error.textContent).toContain('Não foi possível carregar o status da mensagem.');
    expect(screen.queryByTestId('message-status-loading')).toBeNull();
    expect(screen.queryByTestId('message-status-spinner')).toBeNull();
    // No more reads while it stands failed: a failed read is not retried every second for ever.
    // Three and a half poll periods at once: a timer still set would read again.
    const after = reads;
    await vi.advanceTimersByTimeAsync(3_500);
    expect(reads).toBe(after);

    failing = false;
    fireEvent.click(screen.getByText('Tentar de novo'));
    const badge = await screen.findByTestId('message-status-badge');
    expect(badge.getAttribute('data-status')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('message-status-error')).toBeNull());
  });
});
