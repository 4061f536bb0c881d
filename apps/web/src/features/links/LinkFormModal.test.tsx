import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { jsonAnswer, realApi, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
import { notify } from '../../platform/notify';
import { LinkFormModal } from './LinkFormModal';

vi.mock('../../platform/notify', () => ({ notify: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

resetAfterEach();
beforeEach(() => vi.mocked(notify.error).mockClear());

/** The real API, with the create's POST recorded and answered (nothing left behind on the shared server). */
function useRecordedCreates() {
  const posts: unknown[] = [];
  useRealApi(realApi().userToken, (path, init) => {
    if (init?.method !== 'POST' || path !== '/api/v1/rotating-links') return undefined;
    posts.push(JSON.parse(String(init.body)));
    return jsonAnswer(201, {});
  });
  return posts;
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('the rotating link form', () => {
  it('a link the server’s schema refuses is not sent: the same toast as the server’s refusal', async () => {
    const posts = useRecordedCreates();
    const onSaved = vi.fn();
    await renderWithApp(
      <LinkFormModal link={null} publicBase="https://ecoa.test/l/" onClose={() => {}} onSaved={onSaved} />,
    );
    type('link-name', 'Vendas');
    type('link-slug', 've');
    type('target-value', '11987654321');
    fireEvent.click(screen.getByTestId('link-save'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith(pt.links.errors.fields));
    expect(posts).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('a valid link is sent as the API body, trimmed, empty extras left out', async () => {
    const posts = useRecordedCreates();
    const onSaved = vi.fn();
    await renderWithApp(
      <LinkFormModal link={null} publicBase="https://ecoa.test/l/" onClose={() => {}} onSaved={onSaved} />,
    );
    type('link-name', '  Vendas SP ');
    type('target-value', ' 11987654321 ');
    fireEvent.click(screen.getByTestId('link-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(notify.error).not.toHaveBeenCalled();
    expect(posts).toEqual([
      {
        name: 'Vendas SP',
        slug: 'vendas-sp',
        mode: 'round_robin',
        sticky: false,
        targets: [{ kind: 'whatsapp', phone: '11987654321', active: true, hours: null }],
        fallback: null,
        pixels: null,
      },
    ]);
  });
});
