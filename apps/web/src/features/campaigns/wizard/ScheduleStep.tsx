import { NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WeekHoursEditor } from '../../../ui/WeekHoursEditor';
import { type ScheduleProblem, toSaoPauloLocal, type WizardDraft } from './draft';

/**
 * Now or at a date and time (São Paulo); the sending window; an optional maximum rate. `problem`:
 * why the chosen schedule was refused (by the form or the server), shown on the date field.
 */
export function ScheduleStep({
  draft,
  onChange,
  problem,
}: {
  draft: WizardDraft;
  onChange: (patch: Partial<WizardDraft>) => void;
  problem?: ScheduleProblem | null;
}) {
  const { t } = useTranslation();
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
          min={toSaoPauloLocal(new Date().toISOString())}
          onChange={(e) => onChange({ scheduleAt: e.currentTarget.value })}
          error={problem ? t(`campaignWizard.problems.${problem}`) : undefined}
          required
          data-testid="wizard-schedule-at"
        />
      )}
      <Stack gap={6}>
        <Text fw={500}>{t('campaignWizard.when.window')}</Text>
        <Text size="sm" c="dimmed">
          {t('campaignWizard.when.windowHint')}
        </Text>
        <WeekHoursEditor value={draft.window} onChange={(window) => onChange({ window })} />
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
