import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** A titled page with a friendly empty state, for features that arrive in later releases. */
export function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Title order={2}>{t(titleKey)}</Title>
      <Center py={80}>
        <Stack align="center" gap="xs" maw={420} ta="center">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconTools size={28} />
          </ThemeIcon>
          <Text fw={600}>{t('placeholder.title')}</Text>
          <Text c="dimmed" size="sm">
            {t('placeholder.body')}
          </Text>
        </Stack>
      </Center>
    </Stack>
  );
}
