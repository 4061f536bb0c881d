import type { SendingWindow } from '@ecoa/shared';
import { Chip, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WizardDraft } from './draft';

const DAYS = [1, 2, 3, 4, 5, 6, 0];

/** Now or at a date and time (São Paulo); the sending window; an optional maximum rate. */
export function ScheduleStep({
  draft,
  onChange,
}: {
  draft: WizardDraft;
  onChange: (patch: Partial<WizardDraft>) => void;
}) {
  const { t } = useTranslation();
  const setWindow = (patch: Partial<SendingWindow>) => onChange({ window: { ...draft.window, ...patch } });
  return (
    <Stack>
      <SegmentedControl
        value={draft.when}
        onChange={(v) => onChange({ when: v as WizardDraft['when'] })}
        data={[
          { value: 'now', label: t('campaignWizard.when.now') },
          { value: 'later', label: t('campaignWizard.when.later') },
        ]}
        data-testid="wizard-when"
      />
      {draft.when === 'later' && (
        <TextInput
          type="datetime-local"
          label={t('campaignWizard.when.at')}
          description={t('campaignWizard.when.timeZone')}
          value={draft.scheduleAt}
          onChange={(e) => onChange({ scheduleAt: e.currentTarget.value })}
          data-testid="wizard-schedule-at"
        />
      )}
      <Stack gap={6}>
        <Text fw={500}>{t('campaignWizard.when.window')}</Text>
        <Text size="sm" c="dimmed">
          {t('campaignWizard.when.windowHint')}
        </Text>
        <Chip.Group
          multiple
          value={draft.window.days.map(String)}
          onChange={(v) => v.length > 0 && setWindow({ days: v.map(Number).sort() })}
        >
          <Group gap={6}>
            {DAYS.map((d) => (
              <Chip key={d} value={String(d)} size="sm">
                {t(`campaignWizard.when.days.${d}`)}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
        <Group>
          <TextInput
            type="time"
            label={t('campaignWizard.when.from')}
            value={draft.window.start}
            onChange={(e) => setWindow({ start: e.currentTarget.value })}
            w={140}
          />
          <TextInput
            type="time"
            label={t('campaignWizard.when.until')}
            value={draft.window.end === '24:00' ? '23:59' : draft.window.end}
            onChange={(e) => setWindow({ end: e.currentTarget.value === '23:59' ? '24:00' : e.currentTarget.value })}
            w={140}
          />
        </Group>
      </Stack>
      <NumberInput
        label={t('campaignWizard.when.maxRate')}
        description={t('campaignWizard.when.maxRateHint')}
        value={draft.maxRate ?? ''}
        onChange={(v) => onChange({ maxRate: typeof v === 'number' && v > 0 ? Math.round(v) : null })}
        min={1}
        max={10000}
        w={260}
        data-testid="wizard-max-rate"
      />
    </Stack>
  );
}
