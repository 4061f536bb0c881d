import { type CampaignEstimate, formatBrazilianPhone } from '@ecoa/shared';
import { Box, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * One recipient's SMS as a phone shows it: the variables filled, in a received-message bubble,
 * line breaks kept, so the review shows what will actually arrive, not the template.
 */
export function MessageExample({ example }: { example: NonNullable<CampaignEstimate['example']> }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} data-testid="review-example">
      <Text size="sm" fw={600}>
        {t('campaignWizard.review.sms.example', { to: formatBrazilianPhone(example.to) })}
      </Text>
      <Paper
        radius="lg"
        p="md"
        maw={360}
        bg="light-dark(var(--mantine-color-gray-1), var(--mantine-color-dark-5))"
        withBorder
      >
        <Box
          component="p"
          m={0}
          fz="sm"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          data-testid="review-example-text"
        >
          {example.text}
        </Box>
      </Paper>
    </Stack>
  );
}
