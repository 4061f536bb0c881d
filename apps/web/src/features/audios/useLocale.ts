import { useTranslation } from 'react-i18next';

/** The Intl locale of the chosen language (dates, numbers). */
export function useLocale(): string {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en-US' : i18n.language === 'cn' ? 'zh-CN' : 'pt-BR';
}
