import { type ColumnMapping, type ListPreview, MAX_UPLOAD_BYTES } from '@ecoa/shared';
import '@mantine/dropzone/styles.css';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Progress,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconAlertCircle, IconFileSpreadsheet, IconUpload, IconX } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbort } from '../../platform/form-upload';
import { listErrorText } from './errors';
import { listsApi } from './listsApi';

type Step = { kind: 'pick' } | { kind: 'map'; file: File; preview: ListPreview } | { kind: 'upload'; file: File };

const ACCEPT = {
  'text/csv': ['.csv'],
  'text/plain': ['.txt', '.csv'],
  'application/vnd.ms-excel': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
};

const NONE = '-1';

/** Keys of the custom fields: the detected ones with a header row, `coluna_N` without. */
function fieldKeys(preview: ListPreview, hasHeader: boolean): string[] {
  return preview.columns.map((c) => (hasHeader === preview.hasHeader ? c.key : `coluna_${c.index + 1}`));
}

/**
 * Import in three steps: drop a CSV/XLSX, check the columns on a preview (phone, name, the
 * rest become `{variables}`), then upload with progress. The import itself runs on the server;
 * the lists table shows its progress (and keeps showing it after a reload).
 */
export function ImportListModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [uploaded, setUploaded] = useState(0);
  const upload = useRef<AbortController | null>(null);
  const [hasHeader, setHasHeader] = useState(true);
  const [phone, setPhone] = useState<string>(NONE);
  const [nameCol, setNameCol] = useState<string>(NONE);

  const reset = () => {
    setStep({ kind: 'pick' });
    setName('');
    setError(null);
    setBusy(false);
    setUploaded(0);
  };
  const close = () => {
    if (step.kind === 'upload') return;
    reset();
    onClose();
  };

  const onDrop = async (files: File[]) => {
    const file = files[0];
    if (!file) return;
    setError(null);
    setBusy(true);
    try {
      const preview = await listsApi.preview(file);
      setHasHeader(preview.hasHeader);
      setPhone(String(preview.mapping?.phone ?? NONE));
      setNameCol(String(preview.mapping?.name ?? NONE));
      if (!name) setName(file.name.replace(/\.[^.]+$/, ''));
      setStep({ kind: 'map', file, preview });
    } catch (err) {
      setError(listErrorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  const submit = async () => {
    if (step.kind !== 'map') return;
    const { file, preview } = step;
    const phoneIndex = Number(phone);
    const nameIndex = nameCol === NONE ? null : Number(nameCol);
    const keys = fieldKeys(preview, hasHeader);
    const mapping: ColumnMapping = {
      hasHeader,
      phone: phoneIndex,
      name: nameIndex,
      fields: preview.columns
        .filter((c) => c.index !== phoneIndex && c.index !== nameIndex)
        .map((c) => ({ column: c.index, key: keys[c.index]! })),
    };
    setError(null);
    setStep({ kind: 'upload', file });
    upload.current = new AbortController();
    try {
      const input = { file, name: name.trim() || file.name, mapping };
      const { id } = await listsApi.create(input, setUploaded, upload.current.signal);
      onCreated(id);
      reset();
      onClose();
    } catch (err) {
      // Canceled: back to the mapping as it was, nothing to report.
      if (!isAbort(err)) setError(listErrorText(t, err));
      setStep({ kind: 'map', file, preview });
    } finally {
      upload.current = null;
    }
  };

  const columnLabel = (preview: ListPreview, index: number) => {
    const header = hasHeader ? preview.columns[index]?.header : null;
    return header ? `${header}` : t('lists.import.column', { n: index + 1 });
  };

  return (
    <Modal opened={opened} onClose={close} title={t('lists.import.title')} size="xl" data-testid="import-modal">
      <Stack gap="md">
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="import-error">
            {error}
          </Alert>
        )}
        {step.kind === 'pick' && (
          <Dropzone
            onDrop={onDrop}
            onReject={(rejections) =>
              setError(
                t(
                  rejections[0]?.errors[0]?.code === 'file-too-large'
                    ? 'errors.codes.FILE_TOO_LARGE'
                    : 'errors.codes.UNSUPPORTED_FILE_TYPE',
                ),
              )
            }
            maxSize={MAX_UPLOAD_BYTES}
            maxFiles={1}
            multiple={false}
            accept={ACCEPT}
            loading={busy}
            data-testid="import-dropzone"
          >
            <Group justify="center" gap="lg" mih={160} style={{ pointerEvents: 'none' }}>
              <Dropzone.Accept>
                <IconUpload size={48} stroke={1.5} />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconX size={48} stroke={1.5} />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconFileSpreadsheet size={48} stroke={1.5} />
              </Dropzone.Idle>
              <Stack gap={4}>
                <Text size="lg" fw={600}>
                  {t('lists.import.drop')}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('lists.import.dropHint')}
                </Text>
              </Stack>
            </Group>
          </Dropzone>
        )}

        {step.kind === 'map' && (
          <>
            <TextInput
              label={t('lists.import.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={120}
              data-testid="import-name"
            />
            <Text size="sm" c="dimmed">
              {t('lists.import.fileInfo', {
                file: step.file.name,
                kind: step.preview.kind.toUpperCase(),
                encoding: step.preview.encoding ?? '—',
              })}
            </Text>
            <Group grow align="flex-end">
              <Select
                label={t('lists.import.phoneColumn')}
                data={step.preview.columns.map((c) => ({
                  value: String(c.index),
                  label: columnLabel(step.preview, c.index),
                }))}
                value={phone === NONE ? null : phone}
                onChange={(v) => setPhone(v ?? NONE)}
                allowDeselect={false}
                placeholder={t('lists.import.choose')}
                data-testid="import-phone-column"
              />
              <Select
                label={t('lists.import.nameColumn')}
                data={[
                  { value: NONE, label: t('lists.import.noName') },
                  ...step.preview.columns
                    .filter((c) => String(c.index) !== phone)
                    .map((c) => ({ value: String(c.index), label: columnLabel(step.preview, c.index) })),
                ]}
                value={nameCol}
                onChange={(v) => setNameCol(v ?? NONE)}
                allowDeselect={false}
                data-testid="import-name-column"
              />
            </Group>
            <Checkbox
              label={t('lists.import.hasHeader')}
              checked={hasHeader}
              onChange={(e) => setHasHeader(e.currentTarget.checked)}
            />
            {phone === NONE && (
              <Alert color="yellow" icon={<IconAlertCircle size={18} />}>
                {t('errors.codes.NO_PHONE_COLUMN')}
              </Alert>
            )}
            <div>
              <Text size="sm" fw={600} mb={4}>
                {t('lists.import.variables')}
              </Text>
              <Group gap={6}>
                <Badge variant="light" tt="none">
                  {'{nome}'}
                </Badge>
                {fieldKeys(step.preview, hasHeader)
                  .filter((_, i) => String(i) !== phone && String(i) !== nameCol)
                  .map((key) => (
                    <Badge key={key} variant="outline" tt="none">{`{${key}}`}</Badge>
                  ))}
              </Group>
            </div>
            <ScrollArea type="auto" mah={260}>
              <Table striped withTableBorder fz="xs" data-testid="import-preview">
                <Table.Thead>
                  <Table.Tr>
                    {step.preview.columns.map((c) => (
                      <Table.Th
                        key={c.index}
                        bg={String(c.index) === phone ? 'var(--mantine-primary-color-light)' : undefined}
                      >
                        {columnLabel(step.preview, c.index)}
                        {String(c.index) === phone && ` · ${t('lists.import.phoneTag')}`}
                        {String(c.index) === nameCol && ` · ${t('lists.import.nameTag')}`}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {(hasHeader === step.preview.hasHeader
                    ? step.preview.rows
                    : hasHeader
                      ? step.preview.rows.slice(1)
                      : [step.preview.columns.map((c) => c.header ?? ''), ...step.preview.rows]
                  )
                    .slice(0, 8)
                    .map((row, r) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity
                      <Table.Tr key={r}>
                        {step.preview.columns.map((c) => (
                          <Table.Td key={c.index}>{row[c.index] ?? ''}</Table.Td>
                        ))}
                      </Table.Tr>
                    ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            <Group justify="space-between">
              <Button variant="default" onClick={reset}>
                {t('lists.import.otherFile')}
              </Button>
              <Button onClick={submit} disabled={phone === NONE} data-testid="import-submit">
                {t('lists.import.submit')}
              </Button>
            </Group>
          </>
        )}

        {step.kind === 'upload' && (
          <Stack gap="xs" py="md">
            <Text size="sm">{t('lists.import.uploading', { file: step.file.name })}</Text>
            <Progress value={uploaded * 100} animated striped />
            <Button
              variant="default"
              size="xs"
              onClick={() => upload.current?.abort()}
              style={{ alignSelf: 'flex-start' }}
              data-testid="import-cancel"
            >
              {t('lists.import.cancelUpload')}
            </Button>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
