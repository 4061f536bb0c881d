import { STORAGE_KEYS } from '@ecoa/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { storage } from './storage';

describe('storage', () => {
  beforeEach(() => window.localStorage.clear());

  it('persists the language under the spec key "language"', () => {
    storage.setLanguage('cn');
    expect(window.localStorage.getItem('language')).toBe('cn');
    expect(storage.getLanguage()).toBe('cn');
  });

  it('ignores a language value it does not know', () => {
    window.localStorage.setItem(STORAGE_KEYS.language, 'fr');
    expect(storage.getLanguage()).toBeNull();
  });

  it('stores and clears the session token', () => {
    storage.setToken('abc');
    expect(storage.getToken()).toBe('abc');
    storage.setToken(null);
    expect(storage.getToken()).toBeNull();
  });
});
