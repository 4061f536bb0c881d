import { cnpjBaseImportRequestSchema } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { intlLocale } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { LabeledValue } from '../../ui/LabeledValue';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { enrichmentApi } from './enrichmentApi';
import { enrichmentErrorText } from './errors';
import { monthName } from './format';
import { enrichmentKeys } from './queryKeys';

const folderSchema = cnpjBaseImportRequestSchema.pick({ folder: true });

/** The CNPJ base (administrators): its month and size, the last import, a refresh from a server folder. */
export function CnpjBaseCard() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  // The folder as the import request takes it: the button waits for one.
  const form = useForm<z.input<typeof folderSchema>, unknown, z.output<typeof folderSchema>>({
    resolver: zodResolver(folderSchema),
    mode: 'onChange',
    defaultValues: { folder: '' },
  });
  const base = useQuery({
    queryKey: enrichmentKeys.cnpjBase,
    queryFn: enrichmentApi.cnpjBase,
    refetchInterval: (q) => (q.state.data?.lastImport?.status === 'running' ? 2000 : false),
  });
  const locale = intlLocale(i18n.language);
  const number = new Intl.NumberFormat(locale);
  const b = base.data;
  const last = b?.lastImport;

  const start = useMutation({
    mutationFn: (folder: string) => enrichmentApi.cnpjBaseImport(folder),
    onSuccess: async () => {
      notify.success(t('enrichment.base.started'));
      await queryClient.invalidateQueries({ queryKey: enrichmentKeys.cnpjBase });
    },
    onError: (err) => notify.error(enrichmentErrorText(t, err)),
  });
  const submit = form.handleSubmit(({ folder }) => start.mutate(folder));

  return (
    <Card withBorder radius="lg" padding="lg" data-testid="cnpj-base">
      <Stack gap="sm">
        <Title order={4}>{t('enrichment.base.title')}</Title>
        <LoadErrorAlert query={base} fallbackKey="loadError.cnpjBase" data-testid="cnpj-base-error" />
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <LabeledValue
            label={t('enrichment.base.month')}
            value={b?.referenceMonth ? monthName(b.referenceMonth, i18n.language) : '—'}
          />
          <LabeledValue label={t('enrichment.base.establishments')} value={b ? number.format(b.establishments) : '—'} />
          <LabeledValue label={t('enrichment.base.companies')} value={b ? number.format(b.companies) : '—'} />
          <LabeledValue
            label={t('enrichment.base.importedAt')}
            value={b?.importedAt ? new Date(b.importedAt).toLocaleString(locale) : '—'}
          />
        </SimpleGrid>
        {last && (
          <Group gap="xs">
            <Text size="sm">{t('enrichment.base.lastImport')}</Text>
            <Badge color={last.status === 'done' ? 'teal' : last.status === 'failed' ? 'red' : 'blue'} variant="light">
              {t(`enrichment.base.status.${last.status}`)}
            </Badge>
            <Text size="sm" c="dimmed">
              {last.folder} · {t('enrichment.base.rows', { count: last.rows })}
              {last.file ? ` · ${last.file}` : ''}
              {last.error ? ` · ${last.error}` : ''}
            </Text>
          </Group>
        )}
        <Group align="end">
          <TextInput
            style={{ flex: 1 }}
            maw={460}
            label={t('enrichment.base.folder')}
            description={t('enrichment.base.folderHelp')}
            placeholder="/dados/cnpj/2026-11"
            data-testid="cnpj-base-folder"
            {...form.register('folder')}
          />
          <Button
            onClick={() => void submit()}
            loading={start.isPending}
            disabled={!form.formState.isValid || last?.status === 'running'}
            data-testid="cnpj-base-import"
          >
            {t('enrichment.base.import')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
