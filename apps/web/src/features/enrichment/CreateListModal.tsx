import type { Enrichment } from '@ecoa/shared';
import { Anchor, Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notify } from '../../platform/notify';
import { listsKeys } from '../lists/queryKeys';
import { enrichmentApi } from './enrichmentApi';
import { enrichmentErrorText } from './errors';

/** "Create a contact list": the phones found (mobiles and/or landlines), ready for a campaign in /listas. */
export function CreateListModal({ enrichment, onClose }: { enrichment: Enrichment; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(enrichment.name);
  const [kinds, setKinds] = useState<string[]>(['mobile']);
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const queryClient = useQueryClient();

  const save = async () => {
    setSaving(true);
    try {
      const { listId } = await enrichmentApi.toList(enrichment.id, {
        name: name.trim(),
        kinds: kinds as ('mobile' | 'landline')[],
      });
      setCreated(listId);
      // Every lists query (the lists page, the wizard's picker) now misses this one.
      void queryClient.invalidateQueries({ queryKey: listsKeys.all });
      notify.success(t('enrichment.toList.done'));
    } catch (err) {
      notify.error(enrichmentErrorText(t, err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('enrichment.toList.title')}>
      {created ? (
        <Stack>
          <Text>{t('enrichment.toList.done')}</Text>
          <Anchor component={Link} to="/listas" data-testid="enrichment-list-link">
            {t('enrichment.toList.open')}
          </Anchor>
        </Stack>
      ) : (
        <Stack>
          <TextInput
            label={t('enrichment.toList.name')}
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.currentTarget.value)}
            data-testid="enrichment-list-name"
          />
          <Checkbox.Group label={t('enrichment.toList.kinds')} value={kinds} onChange={setKinds}>
            <Group mt={6}>
              <Checkbox value="mobile" label={t('enrichment.toList.mobiles')} data-testid="enrichment-list-mobiles" />
              <Checkbox
                value="landline"
                label={t('enrichment.toList.landlines')}
                data-testid="enrichment-list-landlines"
              />
            </Group>
          </Checkbox.Group>
          <Text size="xs" c="dimmed">
            {t('enrichment.toList.help')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('enrichment.cancel')}
            </Button>
            <Button
              onClick={save}
              loading={saving}
              disabled={!name.trim() || kinds.length === 0}
              data-testid="enrichment-list-save"
            >
              {t('enrichment.toList.save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
