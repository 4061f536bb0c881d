import { LANGUAGES, type Language } from '@ecoa/shared';
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../platform/i18n';

/** Language names are shown in their own language, so anyone can find theirs. */
const LANGUAGE_NAMES: Record<Language, string> = { pt: 'Português', en: 'English', cn: '简体中文' };

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  return (
    <Select
      aria-label={t('shell.language')}
      data-testid="language-switcher"
      size="xs"
      w={140}
      allowDeselect={false}
      value={i18n.language}
      data={LANGUAGES.map((lng) => ({ value: lng, label: LANGUAGE_NAMES[lng] }))}
      onChange={(value) => value && void changeLanguage(value as Language)}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
