import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { realApi, serverCall, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
import { LinksPage } from './LinksPage';

resetAfterEach();

describe("the links page's search", () => {
  it('asks the server once per pause in typing, not once per key', async () => {
    const slug = `teclas-${Date.now().toString(36)}`;
    const created = await serverCall(realApi().userToken, 'POST', '/api/v1/rotating-links', {
      name: `Teclado ${slug}`,
      slug,
      targets: [{ kind: 'url', url: 'https://a.example.com' }],
    });
    expect(created.status).toBe(201);
    const searches: string[] = [];
    useRealApi(realApi().userToken, (path) => {
      if (path.startsWith('/api/v1/rotating-links?') && path.includes('q=')) searches.push(path);
      return undefined;
    });
    await renderWithApp(<LinksPage />);
    const search = await screen.findByPlaceholderText(pt.links.search);
    for (let i = 1; i <= slug.length; i++) fireEvent.change(search, { target: { value: slug.slice(0, i) } });

    expect(await screen.findByText(`Teclado ${slug}`)).toBeTruthy();
    await waitFor(() => expect(searches).toHaveLength(1));
    expect(searches[0]).toContain(`q=${slug}`);
  });
});
