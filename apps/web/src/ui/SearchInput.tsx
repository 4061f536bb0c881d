import { TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** A list's search box: the magnifier, and the typed text handed on as it changes. */
export function SearchInput({
  onSearch,
  ...props
}: Omit<TextInputProps, 'onChange'> & { value: string; onSearch: (text: string) => void; 'data-testid'?: string }) {
  return (
    <TextInput leftSection={<IconSearch size={16} />} onChange={(e) => onSearch(e.currentTarget.value)} {...props} />
  );
}
