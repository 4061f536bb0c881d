import type { RotatingLink } from '@ecoa/shared';
import { ActionIcon, Badge, Button, CopyButton, Group, Menu, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import {
  IconChartBar,
  IconCheck,
  IconCopy,
  IconDots,
  IconLink,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconQrcode,
  IconTrash,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../platform/notify';
import { usePagedSearch } from '../../platform/usePagedSearch';
import { openDeleteDialog } from '../../ui/ConfirmDialog';
import { DataTable, TablePagination } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { QueryErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { SearchInput } from '../../ui/SearchInput';
import { SEARCH_DEBOUNCE_MS } from '../../ui/useSearchPicker';
import { linkErrorText } from './errors';
import { LinkFormModal } from './LinkFormModal';
import { LinkQrModal } from './LinkQrModal';
import { LinkStatsModal } from './LinkStatsModal';
import { linksApi } from './linksApi';
import { linksKeys } from './queryKeys';

/** A page of links, as the server sends by default. */
const PAGE_SIZE = 20;

function StatusBadge({ link }: { link: RotatingLink }) {
  const { t } = useTranslation();
  if (link.disabled)
    return (
      <Tooltip label={link.disabledReason ?? ''} disabled={!link.disabledReason}>
        <Badge color="red" variant="light">
          {t('links.status.disabled')}
        </Badge>
      </Tooltip>
    );
  return (
    <Badge color={link.status === 'active' ? 'teal' : 'gray'} variant="light" data-testid="link-status">
      {t(`links.status.${link.status}`)}
    </Badge>
  );
}

/** `/link-rotativo`: the user's rotating links, their address, clicks and actions. */
export function LinksPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { paging, page, search: q, setSearch, debounced } = usePagedSearch(PAGE_SIZE, SEARCH_DEBOUNCE_MS);
  const searched = debounced.trim();
  const [editing, setEditing] = useState<RotatingLink | null | undefined>(undefined);
  const [viewing, setViewing] = useState<RotatingLink | null>(null);
  const [showingQr, setShowingQr] = useState<RotatingLink | null>(null);
  const links = useQuery({
    queryKey: linksKeys.search(searched, page),
    queryFn: () => linksApi.list(searched, page),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: linksKeys.all });
  const publicBase = `${window.location.origin}/l/`;

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      notify.success(done);
      await refresh();
    } catch (err) {
      notify.error(linkErrorText(t, err));
    }
  };
  const remove = (link: RotatingLink) =>
    openDeleteDialog({
      title: t('links.delete.title'),
      body: t('links.delete.body', { name: link.name }),
      confirmLabel: t('links.delete.confirm'),
      cancelLabel: t('links.cancel'),
      remove: () => linksApi.remove(link.id),
      doneText: t('links.delete.done'),
      errorText: (err) => linkErrorText(t, err),
      refresh,
    });

  const items = links.data?.items ?? [];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('links.title')}
        subtitle={t('links.subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="new-link">
            {t('links.new')}
          </Button>
        }
      />
      <SearchInput placeholder={t('links.search')} value={q} onSearch={setSearch} maw={360} />
      <QueryErrorAlert query={links} fallbackKey="loadError.links" />
      {links.isSuccess && items.length === 0 && !q && (
        <EmptyState
          icon={<IconLink size={28} />}
          title={t('links.empty.title')}
          body={t('links.empty.body')}
          action={<Button onClick={() => setEditing(null)}>{t('links.new')}</Button>}
        />
      )}
      {items.length > 0 && (
        <Paper withBorder>
          <DataTable
            columns={[
              { header: t('links.columns.link') },
              { header: t('links.columns.mode') },
              { header: t('links.columns.targets') },
              { header: t('links.columns.status') },
              { header: t('links.columns.clicks'), align: 'right' },
              { header: t('links.columns.last7'), align: 'right' },
              {},
            ]}
            rows={items}
            renderRow={(link) => (
              <Table.Tr key={link.id} data-testid="link-row">
                <Table.Td>
                  <Text fw={600}>{link.name}</Text>
                  <Group gap={4} wrap="nowrap">
                    <Text size="sm" c="dimmed" data-testid="link-address">
                      {link.url}
                    </Text>
                    <CopyButton value={link.url}>
                      {({ copied, copy }) => (
                        <Tooltip label={copied ? t('links.copied') : t('links.copy')}>
                          <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label={t('links.copy')}>
                            {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </CopyButton>
                  </Group>
                </Table.Td>
                <Table.Td>{t(`links.mode.${link.mode}`)}</Table.Td>
                <Table.Td>
                  {t('links.activeTargets', {
                    active: link.targets.filter((x) => x.active).length,
                    total: link.targets.length,
                  })}
                </Table.Td>
                <Table.Td>
                  <StatusBadge link={link} />
                </Table.Td>
                <Table.Td ta="right" data-testid="link-clicks">
                  {link.clicks}
                </Table.Td>
                <Table.Td ta="right">{link.clicksLast7Days}</Table.Td>
                <Table.Td>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" aria-label={t('links.actions.more')} data-testid="link-menu">
                        <IconDots size={18} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item
                        leftSection={<IconChartBar size={16} />}
                        onClick={() => setViewing(link)}
                        data-testid="action-stats"
                      >
                        {t('links.actions.stats')}
                      </Menu.Item>
                      <Menu.Item
                        leftSection={<IconQrcode size={16} />}
                        onClick={() => setShowingQr(link)}
                        data-testid="action-qr"
                      >
                        {t('links.actions.qr')}
                      </Menu.Item>
                      <Menu.Item
                        leftSection={<IconPencil size={16} />}
                        onClick={() => setEditing(link)}
                        data-testid="action-edit"
                      >
                        {t('links.actions.edit')}
                      </Menu.Item>
                      {link.status === 'active' ? (
                        <Menu.Item
                          leftSection={<IconPlayerPause size={16} />}
                          data-testid="action-pause"
                          onClick={() => act(() => linksApi.update(link.id, { status: 'paused' }), t('links.paused'))}
                        >
                          {t('links.actions.pause')}
                        </Menu.Item>
                      ) : (
                        <Menu.Item
                          leftSection={<IconPlayerPlay size={16} />}
                          data-testid="action-resume"
                          onClick={() => act(() => linksApi.update(link.id, { status: 'active' }), t('links.resumed'))}
                        >
                          {t('links.actions.resume')}
                        </Menu.Item>
                      )}
                      <Menu.Divider />
                      <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => remove(link)}>
                        {t('links.actions.delete')}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            )}
            minWidth={760}
            verticalSpacing="sm"
            highlightOnHover
          />
        </Paper>
      )}
      <TablePagination paging={paging} total={links.data?.total} />
      {editing !== undefined && (
        <LinkFormModal
          link={editing}
          publicBase={publicBase}
          onClose={() => setEditing(undefined)}
          onSaved={() => setEditing(undefined)}
        />
      )}
      {viewing && <LinkStatsModal link={viewing} onClose={() => setViewing(null)} />}
      {showingQr && <LinkQrModal link={showingQr} onClose={() => setShowingQr(null)} />}
    </Stack>
  );
}
