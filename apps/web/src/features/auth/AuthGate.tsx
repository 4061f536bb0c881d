import { Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthFlow } from './AuthFlow';
import { useSession } from './SessionProvider';

/** Signed in: the app. Signed out: the sign-in flow, on any route. Meanwhile: a spinner. */
export function AuthGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { status } = useSession();
  if (status === 'loading') {
    return (
      <Center h="100vh" data-testid="session-loader">
        <Stack align="center" gap="sm">
          <Loader aria-hidden="true" />
          <Text size="sm" c="dimmed" role="status">
            {t('auth.loading')}
          </Text>
        </Stack>
      </Center>
    );
  }
  if (status === 'anonymous') return <AuthFlow />;
  return children;
}
