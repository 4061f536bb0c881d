import { LANGUAGES, type Language } from '@ecoa/shared';
import { ActionIcon, Combobox, Select, Tooltip, useCombobox } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../platform/i18n';

/** Language names are shown in their own language, so anyone can find theirs. */
const LANGUAGE_NAMES: Record<Language, string> = { pt: 'Português', en: 'English', cn: '简体中文' };

/**
 * The sidebar's language choice. `compact` (the collapsed 5rem sidebar): an icon button opening
 * the same three options, so the switcher stays reachable however the sidebar is shown.
 */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const choose = (value: string | null) => value && void changeLanguage(value as Language);
  if (compact) return <CompactLanguageSwitcher label={t('shell.language')} current={i18n.language} onChoose={choose} />;
  return (
    <Select
      aria-label={t('shell.language')}
      data-testid="language-switcher"
      size="xs"
      w={140}
      allowDeselect={false}
      value={i18n.language}
      data={LANGUAGES.map((lng) => ({ value: lng, label: LANGUAGE_NAMES[lng] }))}
      onChange={choose}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

function CompactLanguageSwitcher({
  label,
  current,
  onChoose,
}: {
  label: string;
  current: string;
  onChoose: (value: string) => void;
}) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  return (
    <Combobox
      store={combobox}
      position="right-end"
      width={160}
      withinPortal
      onOptionSubmit={(value) => {
        onChoose(value);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <Tooltip label={label} position="right" withArrow disabled={combobox.dropdownOpened}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`${label}: ${LANGUAGE_NAMES[current as Language] ?? current}`}
            aria-haspopup="listbox"
            aria-expanded={combobox.dropdownOpened}
            onClick={() => combobox.toggleDropdown()}
            data-testid="language-switcher"
          >
            <IconLanguage size={20} stroke={1.7} />
          </ActionIcon>
        </Tooltip>
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options aria-label={label}>
          {LANGUAGES.map((lng) => (
            <Combobox.Option value={lng} key={lng} active={lng === current} aria-selected={lng === current}>
              {LANGUAGE_NAMES[lng]}
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
