import { type ColumnMapping, columnMappingSchema, type ListPreview, MAX_UPLOAD_BYTES } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Button, Checkbox, Group, Modal, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useUploadMutation } from '../../platform/upload-mutation';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { SpreadsheetDropzone } from '../../ui/FileDropzone';
import { FormSelect } from '../../ui/FormFields';
import type { ModalProps } from '../../ui/modalProps';
import { UploadProgress } from '../../ui/UploadProgress';
import { listErrorText } from './errors';
import { listsApi } from './listsApi';
import { listsKeys } from './queryKeys';

type Step = { kind: 'pick' } | { kind: 'map'; file: File; preview: ListPreview };

const ACCEPT = {
  'text/csv': ['.csv'],
  'text/plain': ['.txt', '.csv'],
  'application/vnd.ms-excel': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
};

const NONE = '-1';

/** The mapping step: the Selects hold column indexes as text, `NONE` for "no column". */
const mappingFormSchema = z.object({
  name: z.string().max(120),
  hasHeader: columnMappingSchema.shape.hasHeader,
  // No phone column chosen (NONE, -1) is refused by the mapping's own rule.
  phone: z.string().transform(Number).pipe(columnMappingSchema.shape.phone),
  nameCol: z
    .string()
    .transform((v) => (v === NONE ? null : Number(v)))
    .pipe(columnMappingSchema.shape.name),
});
type MappingValues = z.input<typeof mappingFormSchema>;
type Mapping = z.output<typeof mappingFormSchema>;
const EMPTY: MappingValues = { name: '', hasHeader: true, phone: NONE, nameCol: NONE };

/** Keys of the custom fields: the detected ones with a header row, `coluna_N` without. */
function fieldKeys(preview: ListPreview, hasHeader: boolean): string[] {
  return preview.columns.map((c) => (hasHeader === preview.hasHeader ? c.key : `coluna_${c.index + 1}`));
}

/**
 * Import in three steps: drop a CSV/XLSX, check the columns on a preview (phone, name, the
 * rest become `{variables}`), then upload with progress. The import itself runs on the server;
 * the lists table shows its progress (and keeps showing it after a reload).
 */
export function ImportListModal({ opened, onClose, onCreated }: ModalProps & { onCreated: (id: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  /** A dropped file refused before sending (too large, not a spreadsheet). */
  const [rejected, setRejected] = useState<string | null>(null);
  const form = useForm<MappingValues, unknown, Mapping>({
    resolver: zodResolver(mappingFormSchema),
    defaultValues: EMPTY,
  });
  const [hasHeader, phone, nameCol] = form.watch(['hasHeader', 'phone', 'nameCol']);

  const reading = useMutation({
    mutationFn: (file: File) => listsApi.preview(file),
    onSuccess: (result, file) => {
      form.reset({
        name: form.getValues('name') || file.name.replace(/\.[^.]+$/, ''),
        hasHeader: result.hasHeader,
        phone: String(result.mapping?.phone ?? NONE),
        nameCol: String(result.mapping?.name ?? NONE),
      });
      setStep({ kind: 'map', file, preview: result });
    },
  });
  // The import itself runs on the server: once the file is in, the lists table shows it.
  const create = useUploadMutation(
    (input: { file: File; name: string; mapping: ColumnMapping }, onProgress, signal) =>
      listsApi.create(input, onProgress, signal),
    {
      onSuccess: ({ id }) => {
        void queryClient.invalidateQueries({ queryKey: listsKeys.all });
        onCreated(id);
        reset();
        onClose();
      },
    },
  );
  const uploading = create.mutation.isPending;
  // Canceled: back to the mapping as it was, nothing to report.
  const failure = create.failure ?? reading.error;
  const error = rejected ?? (failure ? listErrorText(t, failure) : null);

  const reset = () => {
    setStep({ kind: 'pick' });
    form.reset(EMPTY);
    setRejected(null);
    reading.reset();
    create.mutation.reset();
  };
  const close = () => {
    if (uploading) return;
    reset();
    onClose();
  };

  const onDrop = (files: File[]) => {
    const file = files[0];
    if (!file) return;
    setRejected(null);
    create.mutation.reset();
    reading.mutate(file);
  };

  const submit = form.handleSubmit((values) => {
    if (step.kind !== 'map') return;
    const { file, preview } = step;
    const keys = fieldKeys(preview, values.hasHeader);
    const mapping: ColumnMapping = {
      hasHeader: values.hasHeader,
      phone: values.phone,
      name: values.nameCol,
      fields: preview.columns
        .filter((c) => c.index !== values.phone && c.index !== values.nameCol)
        .map((c) => ({ column: c.index, key: keys[c.index]! })),
    };
    setRejected(null);
    reading.reset();
    create.mutation.mutate({ file, name: values.name.trim() || file.name, mapping });
  });

  const columnLabel = (preview: ListPreview, index: number) => {
    const header = hasHeader ? preview.columns[index]?.header : null;
    return header ? `${header}` : t('lists.import.column', { n: index + 1 });
  };

  return (
    <Modal opened={opened} onClose={close} title={t('lists.import.title')} size="xl" data-testid="import-modal">
      <Stack gap="md">
        <ErrorAlert error={error} data-testid="import-error" />
        {step.kind === 'pick' && (
          <SpreadsheetDropzone
            onDrop={onDrop}
            onRefused={setRejected}
            title={t('lists.import.drop')}
            hint={t('lists.import.dropHint')}
            size="lg"
            maxSize={MAX_UPLOAD_BYTES}
            accept={ACCEPT}
            loading={reading.isPending}
            data-testid="import-dropzone"
          />
        )}

        {step.kind === 'map' && !uploading && (
          <>
            <TextInput
              label={t('lists.import.name')}
              maxLength={120}
              data-testid="import-name"
              {...form.register('name')}
            />
            <Text size="sm" c="dimmed">
              {t('lists.import.fileInfo', {
                file: step.file.name,
                kind: step.preview.kind.toUpperCase(),
                encoding: step.preview.encoding ?? '—',
              })}
            </Text>
            <Group grow align="flex-end">
              <FormSelect
                control={form.control}
                name="phone"
                emptyValue={NONE}
                label={t('lists.import.phoneColumn')}
                data={step.preview.columns.map((c) => ({
                  value: String(c.index),
                  label: columnLabel(step.preview, c.index),
                }))}
                allowDeselect={false}
                placeholder={t('lists.import.choose')}
                data-testid="import-phone-column"
              />
              <FormSelect
                control={form.control}
                name="nameCol"
                label={t('lists.import.nameColumn')}
                data={[
                  { value: NONE, label: t('lists.import.noName') },
                  ...step.preview.columns
                    .filter((c) => String(c.index) !== phone)
                    .map((c) => ({ value: String(c.index), label: columnLabel(step.preview, c.index) })),
                ]}
                allowDeselect={false}
                data-testid="import-name-column"
              />
            </Group>
            <Checkbox label={t('lists.import.hasHeader')} {...form.register('hasHeader')} />
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
              <Button onClick={() => void submit()} disabled={phone === NONE} data-testid="import-submit">
                {t('lists.import.submit')}
              </Button>
            </Group>
          </>
        )}

        {step.kind === 'map' && uploading && (
          <UploadProgress
            gap="xs"
            py="md"
            label={t('lists.import.uploading', { file: step.file.name })}
            progress={create.progress}
            onCancel={create.cancel}
            cancelLabel={t('lists.import.cancelUpload')}
            cancelTestId="import-cancel"
          />
        )}
      </Stack>
    </Modal>
  );
}
