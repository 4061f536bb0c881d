import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadOnStaleChunks } from './staleChunks';

function fakeWindow() {
  const target = new EventTarget();
  const reload = vi.fn();
  const win = Object.assign(target, { sessionStorage: window.sessionStorage, location: { reload } });
  reloadOnStaleChunks(win as unknown as Window);
  return { fail: () => win.dispatchEvent(new Event('vite:preloadError', { cancelable: true })), reload };
}

describe('stale chunks after a release', () => {
  afterEach(() => {
    window.sessionStorage.clear();
    vi.useRealTimers();
  });

  it('reloads once, not again within a minute, and again after it', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T12:00:00Z') });
    const { fail, reload } = fakeWindow();
    fail();
    expect(reload).toHaveBeenCalledTimes(1);
    fail();
    expect(reload).toHaveBeenCalledTimes(1);
    vi.setSystemTime(new Date('2026-01-01T12:01:01Z'));
    fail();
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
