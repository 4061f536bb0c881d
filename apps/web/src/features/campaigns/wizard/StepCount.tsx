import { Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The wizard's steps in order (their names are `campaignWizard.steps.<key>`). */
const STEP_KEYS = ['channel', 'recipients', 'content', 'when', 'review'] as const;

/**
 * On a phone the five steps do not fit a row: the stepper gives way to the step's name, "Etapa 3
 * de 5" and a bar of how far along it is (the bar is only a picture of what the text says).
 */
export function StepCount({ step }: { step: number }) {
  const { t } = useTranslation();
  const total = STEP_KEYS.length;
  return (
    <Stack gap={6} data-testid="wizard-step-count">
      <Group justify="space-between" align="baseline" gap="xs">
        <Text fw={700}>{t(`campaignWizard.steps.${STEP_KEYS[step]}`)}</Text>
        <Text size="sm" c="dimmed">
          {t('campaignWizard.stepOf', { step: step + 1, total })}
        </Text>
      </Group>
      <Progress value={((step + 1) / total) * 100} size="sm" aria-hidden />
    </Stack>
  );
}
