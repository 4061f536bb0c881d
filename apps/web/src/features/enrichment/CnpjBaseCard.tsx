import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { enrichmentApi } from './enrichmentApi';
import { enrichmentErrorText } from './errors';
import { monthName } from './format';
import { enrichmentKeys } from './queryKeys';

/** The CNPJ base (administrators): its month and size, the last import, a refresh from a server folder. */
export function CnpjBaseCard() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [folder, setFolder] = useState('');
  const [starting, setStarting] = useState(false);
  const base = useQuery({
    queryKey: enrichmentKeys.cnpjBase,
    queryFn: enrichmentApi.cnpjBase,
    refetchInterval: (q) => (q.state.data?.lastImport?.status === 'running' ? 2000 : false),
  });
  const locale = intlLocale(i18n.language);
  const number = new Intl.NumberFormat(locale);
  const b = base.data;
  const last = b?.lastImport;

  const start = async () => {
    setStarting(true);
    try {
      await enrichmentApi.cnpjBaseImport(folder.trim());
      notify.success(t('enrichment.base.started'));
      await queryClient.invalidateQueries({ queryKey: enrichmentKeys.cnpjBase });
    } catch (err) {
      notify.error(enrichmentErrorText(t, err));
    } finally {
      setStarting(false);
    }
  };

  return (
    <Card withBorder radius="lg" padding="lg" data-testid="cnpj-base">
      <Stack gap="sm">
        <Title order={4}>{t('enrichment.base.title')}</Title>
        {base.isError && (
          <LoadErrorAlert
            error={base.error}
            fallbackKey="loadError.cnpjBase"
            onRetry={() => void base.refetch()}
            data-testid="cnpj-base-error"
          />
        )}
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Figure
            label={t('enrichment.base.month')}
            value={b?.referenceMonth ? monthName(b.referenceMonth, i18n.language) : '—'}
          />
          <Figure label={t('enrichment.base.establishments')} value={b ? number.format(b.establishments) : '—'} />
          <Figure label={t('enrichment.base.companies')} value={b ? number.format(b.companies) : '—'} />
          <Figure
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
            value={folder}
            onChange={(e) => setFolder(e.currentTarget.value)}
            data-testid="cnpj-base-folder"
          />
          <Button
            onClick={start}
            loading={starting}
            disabled={!folder.trim() || last?.status === 'running'}
            data-testid="cnpj-base-import"
          >
            {t('enrichment.base.import')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
    </div>
  );
}
