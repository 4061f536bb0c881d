import { Center, Loader, Stack, Text } from '@mantine/core';
import { type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../platform/SessionProvider';
import { AuthFlow } from './AuthFlow';

function SessionLoader() {
  const { t } = useTranslation();
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

/**
 * Signed in: the app. Signed out: the sign-in flow, on any route. Meanwhile: a spinner, which
 * also covers the signed-in app's code arriving (a lazy chunk), so the screen does not change
 * between the two. `preload` starts fetching that code while a stored session is being checked,
 * and once a sign-in code is on its way (the visitor is about to sign in).
 */
export function AuthGate({ children, preload }: { children: ReactNode; preload?: () => Promise<unknown> }) {
  const { status } = useSession();
  useEffect(() => {
    // A failure here is only a missed head start: the lazy component loads (and reports) again.
    if (status === 'loading') preload?.().catch(() => {});
  }, [status, preload]);
  if (status === 'loading') return <SessionLoader />;
  if (status === 'anonymous') return <AuthFlow onCodeSent={preload} />;
  return <Suspense fallback={<SessionLoader />}>{children}</Suspense>;
}
