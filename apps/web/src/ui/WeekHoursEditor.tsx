import type { SendingWindow } from '@ecoa/shared';
import { Chip, Group, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Monday first, as Brazilian calendars show the week. */
const DAYS = [1, 2, 3, 4, 5, 6, 0];

/**
 * Days of the week and a time range (America/Sao_Paulo): a campaign's sending window, a
 * rotating link target's opening hours. The time input has no 24:00, so "until 23:59" means
 * the end of the day.
 */
export function WeekHoursEditor({
  value,
  onChange,
  testId,
}: {
  value: SendingWindow;
  onChange: (value: SendingWindow) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const set = (patch: Partial<SendingWindow>) => onChange({ ...value, ...patch });
  return (
    <Stack gap={6} data-testid={testId}>
      <Chip.Group
        multiple
        value={value.days.map(String)}
        onChange={(v) => v.length > 0 && set({ days: v.map(Number).sort() })}
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
          value={value.start}
          onChange={(e) => set({ start: e.currentTarget.value })}
          w={140}
        />
        <TextInput
          type="time"
          label={t('campaignWizard.when.until')}
          value={value.end === '24:00' ? '23:59' : value.end}
          onChange={(e) => set({ end: e.currentTarget.value === '23:59' ? '24:00' : e.currentTarget.value })}
          error={value.start >= value.end ? t('campaignWizard.when.endBeforeStart') : undefined}
          w={140}
        />
      </Group>
    </Stack>
  );
}
