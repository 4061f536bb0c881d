import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@ecoa/shared';
import i18n from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next, useTranslation } from 'react-i18next';
import { storage } from './storage';

/** The `lang` attribute for each of our language codes ("cn" is the spec's name for zh-CN). */
const HTML_LANG: Record<Language, string> = { pt: 'pt-BR', en: 'en', cn: 'zh-CN' };

export function initI18n() {
  const lng = storage.getLanguage() ?? DEFAULT_LANGUAGE;
  document.documentElement.lang = HTML_LANG[lng];
  i18n.on('languageChanged', (next) => {
    if ((LANGUAGES as readonly string[]).includes(next)) document.documentElement.lang = HTML_LANG[next as Language];
  });
  return i18n
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      backend: { loadPath: '/locales/{{lng}}.json' },
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
}

export async function changeLanguage(lng: Language) {
  storage.setLanguage(lng);
  await i18n.changeLanguage(lng);
}

export { i18n };

/** Intl locale of an interface language ("cn" is the spec's name for zh-CN). */
export const intlLocale = (language: string): string =>
  language === 'en' ? 'en-US' : language === 'cn' ? 'zh-CN' : 'pt-BR';

/** A moment as a short date and time in the interface's language ("27/11/2026, 14:05"). */
export function useDateTime(): (iso: string) => string {
  const { i18n: current } = useTranslation();
  const format = new Intl.DateTimeFormat(intlLocale(current.language), { dateStyle: 'short', timeStyle: 'short' });
  return (iso) => format.format(new Date(iso));
}
