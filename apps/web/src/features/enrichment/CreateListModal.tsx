import { type Enrichment, enrichmentToListSchema } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { notify } from '../../platform/notify';
import { DialogButtons } from '../../ui/DialogButtons';
import { listsKeys } from '../lists/queryKeys';
import { enrichmentApi } from './enrichmentApi';
import { enrichmentErrorText } from './errors';

type Values = z.input<typeof enrichmentToListSchema>;
type Body = z.output<typeof enrichmentToListSchema>;

/** "Create a contact list": the phones found (mobiles and/or landlines), ready for a campaign in /listas. */
export function CreateListModal({ enrichment, onClose }: { enrichment: Enrichment; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Checked as typed: the button waits for a name and at least one kind, as the server does.
  const form = useForm<Values, unknown, Body>({
    resolver: zodResolver(enrichmentToListSchema),
    mode: 'onChange',
    defaultValues: { name: enrichment.name, kinds: ['mobile'] },
  });

  const save = useMutation({
    mutationFn: (body: Body) => enrichmentApi.toList(enrichment.id, body),
    onSuccess: () => {
      // Every lists query (the lists page, the wizard's picker) now misses this one.
      void queryClient.invalidateQueries({ queryKey: listsKeys.all });
      notify.success(t('enrichment.toList.done'));
    },
    onError: (err) => notify.error(enrichmentErrorText(t, err)),
  });

  return (
    <Modal opened onClose={onClose} title={t('enrichment.toList.title')}>
      {save.isSuccess ? (
        <Stack>
          <Text>{t('enrichment.toList.done')}</Text>
          <Anchor component={Link} to="/listas" data-testid="enrichment-list-link">
            {t('enrichment.toList.open')}
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={form.handleSubmit((body) => save.mutate(body))} noValidate>
          <Stack>
            <TextInput
              label={t('enrichment.toList.name')}
              maxLength={120}
              data-testid="enrichment-list-name"
              {...form.register('name')}
            />
            <Controller
              control={form.control}
              name="kinds"
              render={({ field }) => (
                <Checkbox.Group
                  label={t('enrichment.toList.kinds')}
                  value={field.value}
                  onChange={(kinds) => field.onChange(kinds as Values['kinds'])}
                >
                  <Group mt={6}>
                    <Checkbox
                      value="mobile"
                      label={t('enrichment.toList.mobiles')}
                      data-testid="enrichment-list-mobiles"
                    />
                    <Checkbox
                      value="landline"
                      label={t('enrichment.toList.landlines')}
                      data-testid="enrichment-list-landlines"
                    />
                  </Group>
                </Checkbox.Group>
              )}
            />
            <Text size="xs" c="dimmed">
              {t('enrichment.toList.help')}
            </Text>
            <DialogButtons
              cancelLabel={t('enrichment.cancel')}
              onCancel={onClose}
              confirmLabel={t('enrichment.toList.save')}
              confirmTestId="enrichment-list-save"
              pending={save.isPending}
              disabled={!form.formState.isValid}
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
