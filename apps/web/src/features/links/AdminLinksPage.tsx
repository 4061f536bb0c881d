import { Badge, Button, Group, Pagination, Paper, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { notify } from '../auth/notify';
import { linkErrorText } from './errors';
import { type AdminLink, linksApi } from './linksApi';

/** `/links` (administrators): every user's rotating links with owner and clicks; disable an abusive one. */
export function AdminLinksPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const links = useQuery({
    queryKey: ['admin-links', q, page],
    queryFn: () => linksApi.adminList(q, page),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin-links'] });

  const setDisabled = async (link: AdminLink, disabled: boolean, reason?: string) => {
    try {
      await linksApi.adminSetDisabled(link.id, disabled, reason);
      notify.success(t(disabled ? 'adminLinks.disabled' : 'adminLinks.enabled'));
      await refresh();
    } catch (err) {
      notify.error(linkErrorText(t, err));
    }
  };
  const disable = (link: AdminLink) => {
    let reason = '';
    modals.openConfirmModal({
      title: t('adminLinks.disableTitle', { name: link.name }),
      children: (
        <Textarea
          data-autofocus
          label={t('adminLinks.reason')}
          description={t('adminLinks.reasonHelp')}
          maxLength={300}
          onChange={(e) => {
            reason = e.currentTarget.value;
          }}
          data-testid="disable-reason"
        />
      ),
      labels: { confirm: t('adminLinks.disable'), cancel: t('links.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-disable' } as never,
      onConfirm: () => {
        if (!reason.trim()) {
          notify.error(t('adminLinks.reasonRequired'));
          return;
        }
        void setDisabled(link, true, reason.trim());
      },
    });
  };

  const items = links.data?.items ?? [];
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>{t('adminLinks.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('adminLinks.subtitle')}
        </Text>
      </div>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('adminLinks.search')}
        value={q}
        onChange={(e) => {
          setQ(e.currentTarget.value);
          setPage(1);
        }}
        maw={360}
      />
      {links.isError && (
        <LoadErrorAlert error={links.error} fallbackKey="links.errors.UNKNOWN" onRetry={() => void links.refetch()} />
      )}
      {links.isSuccess && items.length === 0 && (
        <Text c="dimmed" size="sm">
          {t('adminLinks.empty')}
        </Text>
      )}
      {items.length > 0 && (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={820}>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('adminLinks.columns.owner')}</Table.Th>
                  <Table.Th>{t('links.columns.link')}</Table.Th>
                  <Table.Th miw={130}>{t('links.columns.status')}</Table.Th>
                  <Table.Th ta="right">{t('links.columns.clicks')}</Table.Th>
                  <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {t('links.columns.last7')}
                  </Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((link) => (
                  <Table.Tr key={link.id} data-testid="admin-link-row">
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {link.user.company}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {link.user.name} · {link.user.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {link.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {link.url}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {link.disabled ? (
                        <Stack gap={2}>
                          <Badge
                            color="red"
                            variant="light"
                            style={{ overflow: 'visible' }}
                            data-testid="admin-link-status"
                          >
                            {t('links.status.disabled')}
                          </Badge>
                          {link.disabledReason && (
                            <Text size="xs" c="dimmed">
                              {link.disabledReason}
                            </Text>
                          )}
                        </Stack>
                      ) : (
                        <Badge
                          color={link.status === 'active' ? 'teal' : 'gray'}
                          variant="light"
                          data-testid="admin-link-status"
                        >
                          {t(`links.status.${link.status}`)}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">{link.clicks}</Table.Td>
                    <Table.Td ta="right">{link.clicksLast7Days}</Table.Td>
                    <Table.Td>
                      <Group justify="flex-end">
                        {link.disabled ? (
                          <Button size="xs" variant="light" onClick={() => void setDisabled(link, false)}>
                            {t('adminLinks.enable')}
                          </Button>
                        ) : (
                          <Button
                            size="xs"
                            variant="light"
                            color="red"
                            onClick={() => disable(link)}
                            data-testid="admin-link-disable"
                          >
                            {t('adminLinks.disable')}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {(links.data?.total ?? 0) > 20 && (
        <Pagination value={page} onChange={setPage} total={Math.ceil((links.data?.total ?? 0) / 20)} />
      )}
    </Stack>
  );
}
