import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminUsersApi } from '../admin-users';
import { adminUsersKeys } from '../admin-users/queryKeys';

/** A user picked by company, name, e-mail or CNPJ (the administrators' user search). */
export function UserFilter({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const users = useQuery({
    queryKey: adminUsersKeys.filter(debounced),
    queryFn: ({ signal }) => adminUsersApi.list({ search: debounced, page: 1, pageSize: 20 }, signal),
  });
  return (
    <Select
      searchable
      clearable
      w={300}
      label={t('enrichment.admin.user')}
      placeholder={t('enrichment.admin.userPlaceholder')}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      data={(users.data?.items ?? []).map((u) => ({ value: u.id, label: `${u.name} · ${u.email}` }))}
      value={value}
      onChange={onChange}
      data-testid="enrichment-admin-user"
    />
  );
}
