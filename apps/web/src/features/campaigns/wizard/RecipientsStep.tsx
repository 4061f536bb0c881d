import type { CampaignEstimate, ContactList } from '@ecoa/shared';
import { Alert, Anchor, Checkbox, Group, Loader, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { intlLocale } from '../../../platform/i18n';
import { PICKER_PAGE, useSearchPicker } from '../../../ui/useSearchPicker';
import { listsApi } from '../../lists';
import { listsKeys } from '../../lists/queryKeys';
import { Figure } from './Figure';

/** One or more ready lists; who is left out (opt-outs, duplicates, landlines) counted live by the server. */
export function RecipientsStep({
  lists,
  selected,
  onChange,
  estimate,
  estimating,
  mobileOnly,
}: {
  lists: ContactList[] | undefined;
  selected: string[];
  onChange: (ids: string[]) => void;
  estimate: CampaignEstimate | undefined;
  estimating: boolean;
  mobileOnly: boolean;
}) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  // The newest lists, or the server's search over all of them; the chosen ones always shown.
  const picker = useSearchPicker<ContactList>({
    keys: listsKeys.picker,
    search: (q) => listsApi.list(1, PICKER_PAGE, q),
    byId: listsApi.get,
    chosen: selected,
  });
  const ready = (lists ?? []).filter((l) => l.status === 'ready');
  const shown = (picker.withChosen ?? ready).filter((l) => l.status === 'ready');
  if (lists && ready.length === 0 && !picker.searching && picker.typed === '')
    return (
      <Alert color="blue" data-testid="wizard-no-lists">
        {t('campaignWizard.recipients.noLists')}{' '}
        <Anchor component={Link} to="/listas">
          {t('campaignWizard.recipients.importList')}
        </Anchor>
      </Alert>
    );
  return (
    <Stack>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('campaignWizard.recipients.search')}
        aria-label={t('campaignWizard.recipients.search')}
        value={picker.typed}
        onChange={(e) => picker.setTyped(e.currentTarget.value)}
        data-testid="wizard-list-search"
      />
      {!lists && <Loader size="sm" />}
      {picker.searching && shown.length === 0 && picker.page.isSuccess && (
        <Text size="sm" c="dimmed" data-testid="wizard-list-no-match">
          {t('campaignWizard.recipients.noMatch')}
        </Text>
      )}
      <Checkbox.Group value={selected} onChange={onChange}>
        <Stack gap="xs">
          {shown.map((l) => (
            <Checkbox
              key={l.id}
              value={l.id}
              data-testid="wizard-list"
              label={
                <Group gap="xs">
                  <Text fw={500}>{l.name}</Text>
                  <Text size="sm" c="dimmed">
                    {t('campaignWizard.recipients.contacts', { count: l.valid })}
                  </Text>
                </Group>
              }
            />
          ))}
        </Stack>
      </Checkbox.Group>
      {selected.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="wizard-audience">
          <Figure
            label={t('campaignWizard.recipients.recipients')}
            value={estimate ? number.format(estimate.recipients) : '…'}
            testId="wizard-recipients"
            loading={estimating}
            strong
          />
          <Figure
            label={t('campaignWizard.recipients.optedOut')}
            value={estimate ? number.format(estimate.excluded.optedOut) : '…'}
            testId="wizard-opted-out"
          />
          <Figure
            label={t('campaignWizard.recipients.duplicates')}
            value={estimate ? number.format(estimate.excluded.duplicates) : '…'}
            testId="wizard-duplicates"
          />
          {mobileOnly && (
            <Figure
              label={t('campaignWizard.recipients.landlines')}
              value={estimate ? number.format(estimate.excluded.landlines) : '…'}
              testId="wizard-landlines"
            />
          )}
        </SimpleGrid>
      )}
    </Stack>
  );
}
