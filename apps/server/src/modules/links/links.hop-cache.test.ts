import { describe, expect, it } from 'vitest';
import { createLinkCache } from './links.hop-cache.ts';
import type { HopLink } from './links.repository.ts';

describe('the hop’s link cache', () => {
  it('reads a slug once per second, at once again after forget, and never keeps a failed read', async () => {
    let t = 0;
    const loads: string[] = [];
    let fail = false;
    const cache = createLinkCache({
      ttlMs: 1000,
      now: () => t,
      load: async (slug) => {
        loads.push(slug);
        if (fail) throw new Error('database gone');
        return slug === 'known' ? ({ slug } as HopLink) : undefined;
      },
    });
    expect(await cache.get('known')).toMatchObject({ slug: 'known' });
    expect(await cache.get('unknown')).toBeUndefined();
    t = 999;
    await cache.get('known');
    await cache.get('unknown');
    expect(loads).toEqual(['known', 'unknown']);
    cache.forget('known');
    await cache.get('known');
    t = 2000;
    await cache.get('unknown');
    expect(loads).toEqual(['known', 'unknown', 'known', 'unknown']);
    fail = true;
    t = 4000;
    await expect(cache.get('known')).rejects.toThrow('database gone');
    fail = false;
    expect(await cache.get('known')).toMatchObject({ slug: 'known' });
  });
});
