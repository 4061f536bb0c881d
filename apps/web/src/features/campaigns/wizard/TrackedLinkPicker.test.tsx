import type { CampaignContent } from '@ecoa/shared';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pt from '../../../../public/locales/pt.json';
import { realApi, serverCall, useRealApi } from '../../../../test/real-api.test-support';
import { renderWithApp } from '../../../../test/render.test-support';
import { TrackedLinkPicker } from './TrackedLinkPicker';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the tracked link picker', () => {
  it('finds a link past the newest 100 by searching the server, one request per pause in typing', async () => {
    const run = Date.now().toString(36);
    // 101 links: the first one created is the 101st newest, out of any first page of 100.
    const create = async (i: number) => {
      const n = String(i).padStart(3, '0');
      const res = await serverCall(realApi().userToken, 'POST', '/api/v1/rotating-links', {
        name: `Busca ${run} ${n}`,
        slug: `busca-${run}-${n}`,
        targets: [{ kind: 'url', url: 'https://a.example.com' }],
      });
      expect(res.status).toBe(201);
    };
    await create(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let batch = 0; batch < 10; batch++)
      await Promise.all(Array.from({ length: 10 }, (_, i) => create(1 + batch * 10 + i)));
    const searches: string[] = [];
    useRealApi(realApi().userToken, (path) => {
      if (path.startsWith('/api/v1/rotating-links?') && path.includes('q=')) searches.push(path);
      return undefined;
    });
    await renderWithApp(<TrackedLinkPicker content={{ text: 'Oi' }} onChange={() => {}} />);
    fireEvent.click(screen.getByTestId('insert-link'));
    const search = await screen.findByTestId('tracked-link-rotating');
    const wanted = `Busca ${run} 000`;
    // Typed key by key, faster than the debounce.
    for (let i = 1; i <= wanted.length; i++) fireEvent.change(search, { target: { value: wanted.slice(0, i) } });

    expect(await screen.findByRole('option', { name: `${wanted} (/l/busca-${run}-000)` })).toBeTruthy();
    await waitFor(() => expect(searches).toHaveLength(1));
    expect(decodeURIComponent(searches[0]!.replace(/\+/g, ' '))).toContain(`q=${wanted}`);
  }, 60_000);

  it('removing the chosen link is a real button (reachable with Tab)', async () => {
    useRealApi(realApi().userToken);
    const onChange = vi.fn();
    const content: CampaignContent = { text: 'Oi {link}', trackedLink: { url: 'https://example.com/oferta' } };
    await renderWithApp(<TrackedLinkPicker content={content} onChange={onChange} />);
    const remove = screen.getByRole('button', { name: pt.campaignWizard.link.remove });
    expect(remove.tagName).toBe('BUTTON');
    expect(remove.tabIndex).toBeGreaterThanOrEqual(0);
    remove.focus();
    expect(document.activeElement).toBe(remove);
    fireEvent.click(remove);
    expect(onChange).toHaveBeenCalledWith({ text: 'Oi' });
  });
});
