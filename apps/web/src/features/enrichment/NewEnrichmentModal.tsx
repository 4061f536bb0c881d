import { cnpjChars, cnpjProblem, createEnrichmentSchema, MAX_UPLOAD_BYTES } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Group, Modal, Progress, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { intlLocale } from '../../platform/i18n';
import { useUploadMutation } from '../../platform/upload-mutation';
import { DialogButtons } from '../../ui/DialogButtons';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { SpreadsheetDropzone } from '../../ui/FileDropzone';
import { FormSegmented } from '../../ui/FormFields';
import { creditsApi, refreshMoney } from '../credits';
import { creditsKeys } from '../credits/queryKeys';
import { enrichmentApi } from './enrichmentApi';
import { enrichmentErrorText } from './errors';
import { enrichmentKeys } from './queryKeys';

const ACCEPT = {
  'text/csv': ['.csv'],
  'text/plain': ['.txt', '.csv'],
  'application/vnd.ms-excel': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
};

/** Pasted text: one CNPJ per line (or separated by commas, semicolons, spaces between masked ones). */
function pastedCnpjs(text: string): string[] {
  return text
    .split(/[\n,;\t]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The same checks the server makes, live: valid, invalid, duplicates. */
function countOf(values: string[]) {
  const seen = new Set<string>();
  let invalid = 0;
  let duplicates = 0;
  for (const v of values) {
    const c = cnpjChars(v);
    if (cnpjProblem(c)) invalid++;
    else if (seen.has(c)) duplicates++;
    else seen.add(c);
  }
  return { valid: seen.size, invalid, duplicates };
}

/**
 * The form: a spreadsheet, or pasted text with at least one valid CNPJ (the button waits for
 * one); the name may be left empty (the file's name, else a default, is used).
 */
const newEnrichmentSchema = z
  .object({
    source: z.enum(['file', 'paste']),
    name: createEnrichmentSchema.shape.name.or(z.string().trim().length(0)),
    file: z.instanceof(File).nullable(),
    text: z.string(),
    onlyActive: z.boolean(),
  })
  .refine((v) => (v.source === 'file' ? v.file !== null : countOf(pastedCnpjs(v.text)).valid > 0));
type Values = z.input<typeof newEnrichmentSchema>;
type Valid = z.output<typeof newEnrichmentSchema>;

/** A new enrichment: a spreadsheet (its CNPJ column is found by itself) or pasted CNPJs. */
export function NewEnrichmentModal({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<Values, unknown, Valid>({
    resolver: zodResolver(newEnrichmentSchema),
    mode: 'onChange',
    defaultValues: { source: 'file', name: '', file: null, text: '', onlyActive: false },
  });
  const [source, file, text] = form.watch(['source', 'file', 'text']);
  /** A dropped file refused before sending (too large, not a spreadsheet). */
  const [rejected, setRejected] = useState<string | null>(null);
  const balance = useQuery({ queryKey: creditsKeys.balance, queryFn: creditsApi.balance });
  const available = balance.data?.credits.ENRICHED.available;
  const counts = useMemo(() => countOf(pastedCnpjs(text)), [text]);
  const number = new Intl.NumberFormat(intlLocale(i18n.language));

  const create = useUploadMutation(
    (v: Valid, onProgress) => {
      const label = v.name.trim() || v.file?.name.replace(/\.[^.]+$/, '') || t('enrichment.new.defaultName');
      return v.source === 'file' && v.file
        ? enrichmentApi.createFromFile({ file: v.file, name: label, onlyActive: v.onlyActive }, onProgress)
        : enrichmentApi.createFromText({ name: label, cnpjs: pastedCnpjs(v.text), onlyActive: v.onlyActive });
    },
    {
      onSuccess: ({ id }) => {
        void queryClient.invalidateQueries({ queryKey: enrichmentKeys.all });
        // Its credits are reserved at once.
        void refreshMoney(queryClient);
        onCreated(id);
      },
    },
  );
  const error = rejected ?? (create.failure ? enrichmentErrorText(t, create.failure) : null);
  const submit = form.handleSubmit((values) => {
    setRejected(null);
    create.mutation.mutate(values);
  });

  return (
    <Modal opened onClose={onClose} size="lg" title={t('enrichment.new.title')}>
      <Stack gap="md">
        <ErrorAlert error={error} data-testid="enrichment-error" />
        <TextInput
          label={t('enrichment.new.name')}
          placeholder={t('enrichment.new.namePlaceholder')}
          maxLength={120}
          data-testid="enrichment-name"
          {...form.register('name')}
        />
        <FormSegmented
          control={form.control}
          name="source"
          data={[
            { value: 'file', label: t('enrichment.new.fromFile') },
            { value: 'paste', label: t('enrichment.new.fromText') },
          ]}
          data-testid="enrichment-source"
        />
        {source === 'file' ? (
          <SpreadsheetDropzone
            onDrop={(files) => {
              form.setValue('file', files[0] ?? null, { shouldValidate: true });
              setRejected(null);
              create.mutation.reset();
            }}
            onRefused={setRejected}
            title={file ? file.name : t('enrichment.new.drop')}
            hint={t('enrichment.new.dropHint')}
            maxSize={MAX_UPLOAD_BYTES}
            accept={ACCEPT}
            data-testid="enrichment-dropzone"
          />
        ) : (
          <Stack gap={6}>
            <Textarea
              autosize
              minRows={5}
              maxRows={12}
              placeholder={'11.222.333/0001-81\n12.ABC.345/01DE-35'}
              data-testid="enrichment-text"
              {...form.register('text')}
            />
            <Group gap="xs">
              <Badge color="teal" variant="light" data-testid="enrichment-count-valid">
                {t('enrichment.new.valid', { count: counts.valid })}
              </Badge>
              <Badge color="red" variant="light">
                {t('enrichment.new.invalid', { count: counts.invalid })}
              </Badge>
              <Badge color="gray" variant="light">
                {t('enrichment.new.duplicates', { count: counts.duplicates })}
              </Badge>
            </Group>
          </Stack>
        )}
        <Switch
          label={t('enrichment.new.onlyActive')}
          description={t('enrichment.new.onlyActiveHelp')}
          data-testid="enrichment-only-active"
          {...form.register('onlyActive')}
        />
        <Text size="sm" c="dimmed">
          {t('enrichment.new.pricing', { available: available === undefined ? '…' : number.format(available) })}
        </Text>
        {create.mutation.isPending && <Progress value={create.progress * 100} animated />}
        <DialogButtons
          cancelLabel={t('enrichment.cancel')}
          onCancel={onClose}
          confirmLabel={t('enrichment.new.start')}
          onConfirm={() => void submit()}
          confirmTestId="enrichment-start"
          pending={create.mutation.isPending}
          disabled={!form.formState.isValid}
        />
      </Stack>
    </Modal>
  );
}
