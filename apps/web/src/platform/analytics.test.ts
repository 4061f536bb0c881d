import { GTM_ORIGIN, PUBLIC_CONFIG_PATH } from '@ecoa/shared';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonAnswer, realApi, useRealApi } from '../../test/real-api.test-support';
import { loadTagManager, startTagManager, track } from './analytics';

const containers = () =>
  [...document.querySelectorAll<HTMLScriptElement>('script')].filter((s) => s.src.startsWith(GTM_ORIGIN));

describe('the tag manager container', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    for (const s of containers()) s.remove();
    delete window.dataLayer;
  });

  it('is not loaded when the server has none (GTM_CONTAINER_ID unset), and events stay in the page', async () => {
    useRealApi(realApi().userToken);
    const queryClient = new QueryClient();
    expect(await startTagManager(queryClient)).toBe(false);
    // The settings were read (the support number) and say nothing of a container.
    expect(queryClient.getQueryData<Record<string, unknown>>(['public-config'])).not.toHaveProperty('gtmContainerId');
    track('whatsapp');
    expect(containers()).toHaveLength(0);
    expect(window.dataLayer).toEqual([{ event: 'whatsapp' }]);
  });

  it("is loaded once from Google's host when the server names one, and events pushed before it wait for it", async () => {
    // The real server's settings as an operator who set GTM_CONTAINER_ID gets them.
    const real = await (await fetch(`${realApi().url}${PUBLIC_CONFIG_PATH}`)).json();
    useRealApi(realApi().userToken, (path) =>
      path === PUBLIC_CONFIG_PATH ? jsonAnswer(200, { ...real, gtmContainerId: 'GTM-ABC1234' }) : undefined,
    );
    track('cria-conta');
    expect(await startTagManager(new QueryClient())).toBe(true);
    expect(await startTagManager(new QueryClient())).toBe(true);
    const scripts = containers();
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.src).toBe(`${GTM_ORIGIN}/gtm.js?id=GTM-ABC1234`);
    expect(scripts[0]!.async).toBe(true);
    expect(window.dataLayer?.map((e) => e.event)).toEqual(['cria-conta', 'gtm.js']);
  });

  it('ignores an id of another form, whatever the answer says', () => {
    for (const bad of ['GTM-abc"><script>', 'UA-1234-1', ''])
      expect(loadTagManager({ gtmContainerId: bad }), bad).toBe(false);
    expect(loadTagManager(undefined)).toBe(false);
    expect(containers()).toHaveLength(0);
  });
});
