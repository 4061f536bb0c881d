import { AUDIO_NAME_MAX, type Audio } from '@ecoa/shared';
import { ActionIcon, Badge, Box, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconMicrophone, IconPencil, IconPlayerPlay, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../platform/notify';
import { usePaging } from '../../platform/usePagedSearch';
import { AddButton } from '../../ui/AddButton';
import { useDeleteDialog } from '../../ui/ConfirmDialog';
import { DataTable, TablePagination } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { useRenameDialog } from '../../ui/RenameDialog';
import { RowMenu } from '../../ui/RowMenu';
import { usePhone } from '../../ui/usePhone';
import { AudioPlayer } from './AudioPlayer';
import { audiosApi } from './audiosApi';
import { audioErrorText } from './errors';
import { formatBytes, formatDuration } from './format';
import { audiosKeys } from './queryKeys';
import { UploadAudioModal } from './UploadAudioModal';
import { useLocale } from './useLocale';

const PAGE_SIZE = 20;

function formatLabel(audio: Audio): string {
  return audio.format === 'ogg' ? `OGG · ${audio.codec === 'opus' ? 'Opus' : 'Vorbis'}` : audio.format.toUpperCase();
}

type RowProps = { audio: Audio; playing: boolean; onPlay: (id: string | null) => void };

/** Rename and delete (with a confirmation, and the reason when the server refuses). */
function AudioMenu({ audio, playing, onPlay }: RowProps) {
  const { t } = useTranslation();
  const errorText = (err: unknown) => audioErrorText(t, err);
  const rename = useRenameDialog<Audio>({
    ns: 'audios',
    maxLength: AUDIO_NAME_MAX,
    rename: (item, name) => audiosApi.rename(item.id, name),
    errorText,
    invalidate: audiosKeys.all,
  });
  const deletion = useDeleteDialog<Audio>({
    ns: 'audios',
    remove: async (item) => {
      await audiosApi.remove(item.id);
      if (playing) onPlay(null);
    },
    errorText,
    invalidate: audiosKeys.all,
  });

  return (
    <RowMenu
      label={t('audios.actions.more')}
      testId="audio-menu"
      actions={[
        { icon: IconPencil, label: t('audios.actions.rename'), onClick: () => rename(audio), testId: 'action-rename' },
        {
          icon: IconTrash,
          label: t('audios.actions.delete'),
          onClick: () => deletion.ask(audio),
          testId: 'action-delete',
          disabled: deletion.pending,
          danger: true,
        },
      ]}
    />
  );
}

/** The play button, and the player beside it while this audio plays. */
function Listen({ audio, playing, onPlay }: RowProps) {
  const { t } = useTranslation();
  const label = t(playing ? 'audios.player.stop' : 'audios.player.play');
  return (
    <Group gap="xs" wrap="nowrap">
      <Tooltip label={label}>
        <ActionIcon
          variant={playing ? 'light' : 'filled'}
          radius="xl"
          size="lg"
          onClick={() => onPlay(playing ? null : audio.id)}
          aria-label={label}
          data-testid="audio-play"
        >
          {playing ? <IconPlayerStop size={18} /> : <IconPlayerPlay size={18} />}
        </ActionIcon>
      </Tooltip>
      {playing && <AudioPlayer audio={audio} />}
    </Group>
  );
}

function AudioName({ audio }: { audio: Audio }) {
  return (
    <>
      <Text fw={600} size="sm" data-testid="audio-name" style={{ overflowWrap: 'anywhere' }}>
        {audio.name}
      </Text>
      <Badge variant="light" color="gray" size="xs" mt={4} tt="none">
        {formatLabel(audio)}
      </Badge>
    </>
  );
}

function AudioRow(props: RowProps) {
  const { audio } = props;
  const locale = useLocale();
  return (
    <Table.Tr data-testid={`audio-row-${audio.id}`}>
      <Table.Td>
        <AudioName audio={audio} />
      </Table.Td>
      <Table.Td ta="right" data-testid="audio-duration" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatDuration(audio.durationSeconds)}
      </Table.Td>
      <Table.Td ta="right" data-testid="audio-size" style={{ whiteSpace: 'nowrap' }}>
        {formatBytes(audio.sizeBytes, locale)}
      </Table.Td>
      <Table.Td data-testid="audio-date" style={{ whiteSpace: 'nowrap' }}>
        {new Date(audio.createdAt).toLocaleDateString(locale)}
      </Table.Td>
      <Table.Td w={340}>
        <Listen {...props} />
      </Table.Td>
      <Table.Td>
        <Group justify="flex-end">
          <AudioMenu {...props} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** On a phone: one card per audio instead of a table too wide for the screen. */
function AudioCard(props: RowProps) {
  const { audio } = props;
  const locale = useLocale();
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`audio-row-${audio.id}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <AudioName audio={audio} />
        </div>
        <AudioMenu {...props} />
      </Group>
      <Text size="sm" c="dimmed" mt={6}>
        <span data-testid="audio-duration">{formatDuration(audio.durationSeconds)}</span>
        {' · '}
        <span data-testid="audio-size">{formatBytes(audio.sizeBytes, locale)}</span>
        {' · '}
        <span data-testid="audio-date">{new Date(audio.createdAt).toLocaleDateString(locale)}</span>
      </Text>
      <Box mt="xs">
        <Listen {...props} />
      </Box>
    </Paper>
  );
}

/** `/audios`: the recordings voice torpedo and URA campaigns play (upload, listen, rename, delete). */
export function AudiosPage() {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const paging = usePaging(PAGE_SIZE);
  const [playing, setPlaying] = useState<string | null>(null);
  const phone = usePhone();
  const query = useQuery({
    queryKey: audiosKeys.page(paging.page),
    queryFn: () => audiosApi.list(paging.page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const data = query.data;

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('nav.audios')}
        subtitle={t('audios.intro')}
        actions={
          <AddButton onClick={() => setUploading(true)} data-testid="upload-open">
            {t('audios.uploadButton')}
          </AddButton>
        }
      />
      {query.isError ? (
        <LoadErrorAlert query={query} fallbackKey="loadError.audios" />
      ) : data && data.total === 0 ? (
        <EmptyState
          icon={<IconMicrophone size={28} />}
          title={t('audios.empty.title')}
          body={t('audios.empty.body')}
          note={t('audios.limits')}
          action={<AddButton onClick={() => setUploading(true)}>{t('audios.uploadButton')}</AddButton>}
          data-testid="audios-empty"
        />
      ) : (
        <Stack gap="md">
          {phone ? (
            <Stack gap="sm" data-testid="audios-cards">
              {data?.items.map((audio) => (
                <AudioCard key={audio.id} audio={audio} playing={playing === audio.id} onPlay={setPlaying} />
              ))}
            </Stack>
          ) : (
            <Paper withBorder radius="md">
              <DataTable
                columns={[
                  { header: t('audios.columns.name') },
                  { header: t('audios.columns.duration'), align: 'right' },
                  { header: t('audios.columns.size'), align: 'right' },
                  { header: t('audios.columns.createdAt') },
                  { header: t('audios.columns.listen') },
                  {},
                ]}
                rows={data?.items}
                renderRow={(audio) => (
                  <AudioRow key={audio.id} audio={audio} playing={playing === audio.id} onPlay={setPlaying} />
                )}
                minWidth={820}
                verticalSpacing="sm"
                highlightOnHover
                data-testid="audios-table"
              />
            </Paper>
          )}
          <TablePagination paging={paging} total={data?.total} justify="flex-end" />
        </Stack>
      )}
      <UploadAudioModal
        opened={uploading}
        onClose={() => setUploading(false)}
        onUploaded={(audio) => {
          setUploading(false);
          notify.success(
            t('audios.upload.done', { name: audio.name, duration: formatDuration(audio.durationSeconds) }),
          );
          paging.setPage(1);
        }}
      />
    </Stack>
  );
}
