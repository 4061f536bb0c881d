import { LANGUAGES, type Language, STORAGE_KEYS } from '@ecoa/shared';

/** localStorage access in one place, with the spec's keys. Never throws (private mode, quota). */
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
}

export const storage = {
  getLanguage(): Language | null {
    const v = read(STORAGE_KEYS.language);
    return (LANGUAGES as readonly string[]).includes(v ?? '') ? (v as Language) : null;
  },
  setLanguage: (lng: Language) => write(STORAGE_KEYS.language, lng),
  getToken: () => read(STORAGE_KEYS.token),
  setToken: (token: string | null) => write(STORAGE_KEYS.token, token),
  getClosedModal: () => read(STORAGE_KEYS.closedModal),
  setClosedModal: (value: string) => write(STORAGE_KEYS.closedModal, value),
  isOnboardingDismissed: () => read(STORAGE_KEYS.onboardingDismissed) === 'true',
  dismissOnboarding: () => write(STORAGE_KEYS.onboardingDismissed, 'true'),
};
