import type { RotatingLink } from '@ecoa/shared';
import { ActionIcon, Badge, Button, CopyButton, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import {
  IconChartBar,
  IconCheck,
  IconCopy,
  IconLink,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconQrcode,
  IconTrash,
} from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../platform/notify';
import { usePagedSearch } from '../../platform/usePagedSearch';
import { AddButton } from '../../ui/AddButton';
import { useDeleteDialog } from '../../ui/ConfirmDialog';
import { DataTable, TablePagination } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { RowMenu } from '../../ui/RowMenu';
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

  const errorText = (err: unknown) => linkErrorText(t, err);
  const update = useMutation({
    mutationFn: ({ link, status }: { link: RotatingLink; status: 'active' | 'paused' }) =>
      linksApi.update(link.id, { status }),
    onSuccess: (_, { status }) => {
      notify.success(t(status === 'paused' ? 'links.paused' : 'links.resumed'));
      return refresh();
    },
    onError: (err) => notify.error(errorText(err)),
  });
  const deletion = useDeleteDialog<RotatingLink>({
    ns: 'links',
    remove: (link) => linksApi.remove(link.id),
    errorText,
    invalidate: linksKeys.all,
  });

  const items = links.data?.items ?? [];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('links.title')}
        subtitle={t('links.subtitle')}
        actions={
          <AddButton onClick={() => setEditing(null)} data-testid="new-link">
            {t('links.new')}
          </AddButton>
        }
      />
      <SearchInput placeholder={t('links.search')} value={q} onSearch={setSearch} maw={360} />
      <LoadErrorAlert query={links} fallbackKey="loadError.links" />
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
                  <RowMenu
                    label={t('links.actions.more')}
                    testId="link-menu"
                    actions={[
                      {
                        icon: IconChartBar,
                        label: t('links.actions.stats'),
                        onClick: () => setViewing(link),
                        testId: 'action-stats',
                      },
                      {
                        icon: IconQrcode,
                        label: t('links.actions.qr'),
                        onClick: () => setShowingQr(link),
                        testId: 'action-qr',
                      },
                      {
                        icon: IconPencil,
                        label: t('links.actions.edit'),
                        onClick: () => setEditing(link),
                        testId: 'action-edit',
                      },
                      link.status === 'active'
                        ? {
                            icon: IconPlayerPause,
                            label: t('links.actions.pause'),
                            onClick: () => update.mutate({ link, status: 'paused' }),
                            testId: 'action-pause',
                          }
                        : {
                            icon: IconPlayerPlay,
                            label: t('links.actions.resume'),
                            onClick: () => update.mutate({ link, status: 'active' }),
                            testId: 'action-resume',
                          },
                      {
                        icon: IconTrash,
                        label: t('links.actions.delete'),
                        onClick: () => deletion.ask(link),
                        disabled: deletion.pending,
                        danger: true,
                      },
                    ]}
                  />
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
