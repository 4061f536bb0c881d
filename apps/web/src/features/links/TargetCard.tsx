import { ActionIcon, Group, NumberInput, Paper, Stack, Switch, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { WeekHoursEditor } from '../../ui/WeekHoursEditor';
import { DestinationInput, DestinationKindSelect, OpeningMessageField } from './destinationFields';
import { DEFAULT_TARGET_HOURS, type TargetDraft } from './linkDraft';

/** One target of a rotating link: a WhatsApp number or a page, with its label, weight and hours. */
export function TargetCard({
  target,
  weighted,
  removable,
  onChange,
  onRemove,
}: {
  target: TargetDraft;
  weighted: boolean;
  removable: boolean;
  onChange: (patch: Partial<TargetDraft>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm" data-testid="link-target">
      <Stack gap="xs">
        <Group gap="xs" align="end" wrap="nowrap">
          <DestinationKindSelect
            w={140}
            kinds={['whatsapp', 'url']}
            value={target.kind}
            onChange={(kind) => onChange({ kind })}
          />
          <DestinationInput
            kind={target.kind}
            value={target.value}
            testId="target-value"
            onChange={(value) => onChange({ value })}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={t('links.form.removeTarget')}
            disabled={!removable}
            onClick={onRemove}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
        <Group gap="xs" align="end">
          <TextInput
            style={{ flex: 1 }}
            label={t('links.form.label')}
            placeholder={t('links.form.labelPlaceholder')}
            value={target.label}
            maxLength={60}
            data-testid="target-label"
            onChange={(e) => onChange({ label: e.currentTarget.value })}
          />
          {weighted && (
            <NumberInput
              w={110}
              label={t('links.form.weight')}
              min={1}
              max={100}
              value={target.weight}
              data-testid="target-weight"
              onChange={(v) => onChange({ weight: Number(v) || 1 })}
            />
          )}
          <Switch
            mb={8}
            label={t('links.form.active')}
            checked={target.active}
            onChange={(e) => onChange({ active: e.currentTarget.checked })}
          />
        </Group>
        {target.kind === 'whatsapp' && (
          <OpeningMessageField value={target.message} onChange={(message) => onChange({ message })} />
        )}
        <Switch
          label={t('links.form.hours')}
          description={t('links.form.hoursHelp')}
          checked={target.hours !== null}
          data-testid="target-hours-toggle"
          onChange={(e) => onChange({ hours: e.currentTarget.checked ? DEFAULT_TARGET_HOURS : null })}
        />
        {target.hours && (
          <WeekHoursEditor value={target.hours} onChange={(hours) => onChange({ hours })} testId="target-hours" />
        )}
      </Stack>
    </Paper>
  );
}
