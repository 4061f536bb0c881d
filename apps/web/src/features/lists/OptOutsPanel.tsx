import { formatBrazilianPhone, OPT_OUT_ADD_MAX, type OptOut, type OptOutSummary } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, FileButton, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { notify } from '../../platform/notify';
import { usePagedSearch } from '../../platform/usePagedSearch';
import { openConfirmDialog } from '../../ui/ConfirmDialog';
import { type DataColumn, DataTable, EmptyRow, TablePagination } from '../../ui/DataTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { SearchInput } from '../../ui/SearchInput';
import { listErrorText } from './errors';
import { optOutsApi } from './listsApi';
import { listsKeys, optOutsKeys } from './queryKeys';

const PAGE_SIZE = 20;

/** Pasted numbers: one per line, or separated by commas or semicolons. */
const pastedPhones = (text: string) =>
  text
    .split(/[\n,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);

// Past the server's limit nothing is sent and the text stays, to be split or sent as a file.
const addSchema = z.object({
  numbers: z.string().refine((text) => pastedPhones(text).length <= OPT_OUT_ADD_MAX, 'optOuts.tooMany'),
});

/** The account's opt-out list: numbers no campaign sends to. Add, upload, search, remove. */
export function OptOutsPanel() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === 'en' ? 'en-US' : i18n.language === 'cn' ? 'zh-CN' : 'pt-BR';
  const queryClient = useQueryClient();
  const { paging, page, search, setSearch, debounced } = usePagedSearch(PAGE_SIZE);
  const form = useForm<{ numbers: string }>({
    resolver: zodResolver(addSchema),
    reValidateMode: 'onSubmit',
    defaultValues: { numbers: '' },
  });
  const numbers = form.watch('numbers');
  const tooMany = form.formState.errors.numbers?.message;
  const n = (value: number) => value.toLocaleString(locale);
  const query = useQuery({
    queryKey: optOutsKeys.search(debounced, page),
    queryFn: () => optOutsApi.list(debounced, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  const report = (s: OptOutSummary) => {
    notify.success(t('optOuts.summary', { added: s.added, already: s.alreadyOptedOut, invalid: s.invalid }));
    void queryClient.invalidateQueries({ queryKey: optOutsKeys.all });
    void queryClient.invalidateQueries({ queryKey: listsKeys.all });
  };

  const onError = (err: unknown) => notify.error(listErrorText(t, err));
  const add = useMutation({
    mutationFn: (phones: string[]) => optOutsApi.add(phones),
    onSuccess: (summary) => {
      report(summary);
      form.reset({ numbers: '' });
    },
    onError,
  });
  const upload = useMutation({ mutationFn: (file: File) => optOutsApi.upload(file), onSuccess: report, onError });
  const remove = useMutation({
    mutationFn: (phone: string) => optOutsApi.remove(phone),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: optOutsKeys.all });
      void queryClient.invalidateQueries({ queryKey: listsKeys.all });
    },
    onError,
  });
  const busy = add.isPending || upload.isPending;
  const submit = form.handleSubmit(({ numbers }) => {
    const phones = pastedPhones(numbers);
    if (phones.length > 0) add.mutate(phones);
  });

  // The person asked not to be contacted: taking the number out is confirmed first.
  const confirmRemove = (phone: string) =>
    openConfirmDialog({
      title: t('optOuts.removeTitle'),
      body: t('optOuts.removeBody', { phone: formatBrazilianPhone(phone) }),
      confirmLabel: t('optOuts.removeConfirm'),
      cancelLabel: t('optOuts.cancel'),
      confirmTestId: 'confirm-opt-out-remove',
      onConfirm: () => remove.mutate(phone),
    });

  const data = query.data;
  const columns: DataColumn<OptOut>[] = [
    { header: t('optOuts.columns.phone'), cell: (o) => formatBrazilianPhone(o.phone) },
    { header: t('optOuts.columns.source'), cell: (o) => t(`optOuts.source.${o.source}`) },
    { header: t('optOuts.columns.date'), cell: (o) => new Date(o.createdAt).toLocaleString(locale) },
    {
      cellProps: { ta: 'right' },
      cell: (o) => (
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={() => confirmRemove(o.phone)}
          aria-label={t('optOuts.remove')}
        >
          <IconTrash size={16} />
        </ActionIcon>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('optOuts.intro')}
      </Text>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Textarea
            label={t('optOuts.addLabel')}
            placeholder={t('optOuts.addPlaceholder')}
            autosize
            minRows={2}
            maxRows={6}
            error={tooMany && t(tooMany, { max: n(OPT_OUT_ADD_MAX), pasted: n(pastedPhones(numbers).length) })}
            data-testid="opt-out-input"
            // Editing the text takes the refusal away until the next try.
            {...form.register('numbers', { onChange: () => form.clearErrors('numbers') })}
          />
          <Group justify="space-between">
            <FileButton onChange={(file) => file && upload.mutate(file)} accept=".csv,.txt,.xlsx">
              {(props) => (
                <Button variant="default" leftSection={<IconUpload size={16} />} loading={busy} {...props}>
                  {t('optOuts.upload')}
                </Button>
              )}
            </FileButton>
            <Button onClick={() => void submit()} loading={busy} disabled={!numbers.trim()} data-testid="opt-out-add">
              {t('optOuts.add')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <SearchInput placeholder={t('optOuts.search')} value={search} onSearch={setSearch} data-testid="opt-out-search" />
      <LoadErrorAlert query={query} fallbackKey="loadError.optOuts" data-testid="opt-outs-error" />
      <Paper withBorder radius="md">
        <DataTable
          columns={columns}
          rows={data?.items}
          rowKey={(o) => o.phone}
          empty={!query.isError && <EmptyRow>{t(debounced ? 'optOuts.noMatch' : 'optOuts.empty')}</EmptyRow>}
          verticalSpacing="xs"
          data-testid="opt-outs-table"
        />
      </Paper>
      <TablePagination
        paging={paging}
        total={data?.total}
        justify="space-between"
        before={
          <Text size="sm" c="dimmed">
            {t('optOuts.total', { count: data?.total })}
          </Text>
        }
      />
    </Stack>
  );
}
