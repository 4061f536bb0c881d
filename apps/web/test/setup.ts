// Mantine under jsdom needs these browser APIs (blueprint section 7).
import { configure } from '@testing-library/react';
import { vi } from 'vitest';

// findBy/waitFor wait up to 15 s (not 1 s): screens wait on the real server under a loaded CI.
configure({ asyncUtilTimeout: 15_000 });

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;

// Mantine's Select scrolls its selected option into view when it opens; jsdom has no layout.
Element.prototype.scrollIntoView ??= () => {};

// Node 25+ has a Web Storage global of its own (`localStorage`, empty and unusable without
// --localstorage-file), which hides jsdom's: put jsdom's storages back where the app reads them.
const dom = (globalThis as { jsdom?: { window: Window } }).jsdom;
for (const name of ['localStorage', 'sessionStorage'] as const) {
  const current = (globalThis as Record<string, unknown>)[name] as Storage | undefined;
  if (dom && typeof current?.getItem !== 'function') {
    Object.defineProperty(globalThis, name, { configurable: true, value: dom.window[name] });
  }
}
