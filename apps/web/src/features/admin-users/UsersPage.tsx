import type { AdminUser } from '@ecoa/shared';
import { Badge, Center, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { usePagedSearch } from '../../platform/usePagedSearch';
import { TablePagination } from '../../ui/DataTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { SearchInput } from '../../ui/SearchInput';
import { TwoLineCell } from '../../ui/TwoLineCell';
import { formatReais } from '../credits';
import { adminUsersApi } from './adminUsersApi';
import { maskCnpj, maskPhone } from './format';
import { adminUsersKeys } from './queryKeys';
import { UserDrawer } from './UserDrawer';

const PAGE_SIZE = 20;
const SEARCH_DEBOUNCE_MS = 300;
/** Badges keep their whole label: the table scrolls sideways before a badge is cut. */
const NO_SHRINK = { minWidth: 'max-content' } as const;
/** Each column: one field, or two stacked (company over full name, e-mail over phone) so all fit one screen. */
const COLUMNS: { key: string; below?: string; right?: boolean }[] = [
  { key: 'company', below: 'fullName' },
  { key: 'email', below: 'phone' },
  { key: 'cnpj' },
  { key: 'createdAt' },
  { key: 'status' },
  { key: 'accessLevel' },
  { key: 'balance', right: true },
];

function UserRow({ user, onOpen }: { user: AdminUser; onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.Tr
      data-testid={`user-row-${user.id}`}
      onClick={() => onOpen(user.id)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onOpen(user.id);
        }
      }}
      tabIndex={0}
      style={{ cursor: 'pointer' }}
    >
      <Table.Td miw={180}>
        <TwoLineCell title={user.name} detail={user.fullName} detailSize="sm" />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{user.email}</Text>
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {maskPhone(user.mobilePhone)}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{maskCnpj(user.cnpj)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {new Date(user.createdAt).toLocaleDateString(intlLocale(i18n.language))}
      </Table.Td>
      <Table.Td>
        <Badge color={user.active ? 'teal' : 'gray'} variant="light" style={NO_SHRINK} data-testid="user-active">
          {t(user.active ? 'adminUsers.status.active' : 'adminUsers.status.inactive')}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Badge color={user.accessLevel === 'ADMINISTRATOR' ? 'grape' : 'blue'} variant="outline" style={NO_SHRINK}>
          {t(`adminUsers.accessLevels.${user.accessLevel}`)}
        </Badge>
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="user-balance">
        {formatReais(user.balance.money)}
      </Table.Td>
    </Table.Tr>
  );
}

function LoadingRows() {
  return Array.from({ length: 5 }, (_, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
    <Table.Tr key={i}>
      {COLUMNS.map((c) => (
        <Table.Td key={c.key}>
          <Skeleton height={14} radius="sm" />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

/** `/usuarios` (administrators): every company account, searchable, and the drawer to manage one. */
export function UsersPage() {
  const { t, i18n } = useTranslation();
  const paged = usePagedSearch(PAGE_SIZE, SEARCH_DEBOUNCE_MS);
  const { page, search, setSearch } = paged;
  const debounced = paged.debounced.trim();
  const [openId, setOpenId] = useState<string | null>(null);

  const query = useQuery({
    queryKey: adminUsersKeys.list(debounced, page),
    queryFn: ({ signal }) => adminUsersApi.list({ search: debounced, page, pageSize: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  const total = query.data?.total ?? 0;
  const items = query.data?.items ?? [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>{t('adminUsers.title')}</Title>
          <Text c="dimmed" size="sm">
            {t('adminUsers.subtitle')}
          </Text>
        </div>
        <SearchInput
          w={{ base: '100%', sm: 380 }}
          placeholder={t('adminUsers.searchPlaceholder')}
          aria-label={t('adminUsers.searchPlaceholder')}
          value={search}
          onSearch={setSearch}
          data-testid="users-search"
        />
      </Group>

      <Paper withBorder radius="md">
        {query.isError ? (
          <LoadErrorAlert
            query={query}
            m="md"
            title={t('adminUsers.loadError')}
            fallbackKey="adminUsers.loadError"
            data-testid="users-error"
          />
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table highlightOnHover verticalSpacing="xs" data-testid="users-table">
              <Table.Thead>
                <Table.Tr>
                  {COLUMNS.map((c) => (
                    <Table.Th key={c.key} ta={c.right ? 'right' : undefined} style={{ whiteSpace: 'nowrap' }}>
                      {t(`adminUsers.columns.${c.key}`)}
                      {c.below && (
                        <Text span display="block" size="xs" c="dimmed" fw={400}>
                          {t(`adminUsers.columns.${c.below}`)}
                        </Text>
                      )}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
                {query.isPending ? (
                  <LoadingRows />
                ) : (
                  items.map((u) => <UserRow key={u.id} user={u} onOpen={setOpenId} />)
                )}
              </Table.Tbody>
            </Table>
            {!query.isPending && items.length === 0 && (
              <Center py="xl" data-testid="users-empty">
                <Stack align="center" gap={4}>
                  <IconUsers size={32} stroke={1.5} color="var(--mantine-color-dimmed)" />
                  <Text c="dimmed">
                    {debounced ? t('adminUsers.emptySearch', { search: debounced }) : t('adminUsers.empty')}
                  </Text>
                </Stack>
              </Center>
            )}
          </Table.ScrollContainer>
        )}
      </Paper>

      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid="users-total">
          {t('adminUsers.total', { count: total, formatted: total.toLocaleString(intlLocale(i18n.language)) })}
        </Text>
        <TablePagination paging={paged.paging} total={total} data-testid="users-pagination" />
      </Group>

      <UserDrawer userId={openId} onClose={() => setOpenId(null)} />
    </Stack>
  );
}
