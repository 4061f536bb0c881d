import { ROUTES } from '@ecoa/shared';
import { Button, Group, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconConfetti } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../auth/SessionProvider';
import { DASHBOARD_BALANCE_KEY, LEDGER_KEY, PAYMENTS_KEY } from './creditsApi';

/** Which result the URL carries: `success=true` wins over `cancel=true`. */
export function paymentResultOf(search: string): 'success' | 'cancel' | null {
  const params = new URLSearchParams(search);
  if (params.get('success') === 'true') return 'success';
  if (params.get('cancel') === 'true') return 'cancel';
  return null;
}

/** The same search without the payment-result parameters. */
export function withoutResultParams(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('success');
  params.delete('cancel');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/**
 * The payment result on any page (spec section 2): `success=true` shows the success modal with
 * confetti, re-syncs the profile and refreshes the dashboard balance — once; `cancel=true` shows
 * the cancel modal whose "Tentar novamente" reopens the buy-credits modal. The parameter leaves
 * the URL when the modal closes.
 */
export function PaymentResult({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { refreshUser } = useSession();
  const [result, setResult] = useState<'success' | 'cancel' | null>(null);
  const handled = useRef(false);

  useEffect(() => {
    const found = paymentResultOf(location.search);
    if (!found || handled.current) return;
    handled.current = true;
    setResult(found);
    if (found === 'success') {
      void refreshUser();
      void queryClient.invalidateQueries({ queryKey: DASHBOARD_BALANCE_KEY });
      void queryClient.invalidateQueries({ queryKey: PAYMENTS_KEY });
      void queryClient.invalidateQueries({ queryKey: LEDGER_KEY });
      // Only a paid user ever sees confetti: its code is a chunk fetched at this moment.
      import('canvas-confetti')
        .then(({ default: confetti }) => confetti({ particleCount: 160, spread: 80, origin: { y: 0.6 } }))
        .catch(() => {
          // no canvas (tests, old browsers) or the chunk did not arrive: the modal is enough
        });
    }
  }, [location.search, queryClient, refreshUser]);

  const close = (then?: () => void) => {
    setResult(null);
    void navigate({ pathname: location.pathname, search: withoutResultParams(location.search) }, { replace: true });
    handled.current = false;
    then?.();
  };

  return (
    <>
      <Modal opened={result === 'success'} onClose={() => close()} centered radius="lg" withCloseButton={false}>
        <Stack align="center" ta="center" gap="md" p="md" data-testid="payment-success">
          <ThemeIcon size={72} radius="xl" variant="light" color="teal">
            <IconConfetti size={40} stroke={1.6} />
          </ThemeIcon>
          <Title order={3}>{t('credits.successTitle')}</Title>
          <Text c="dimmed">{t('credits.successText')}</Text>
          <Group justify="center">
            <Button variant="default" onClick={() => close()} data-testid="payment-success-back">
              {t('credits.successBack')}
            </Button>
            <Button onClick={() => close(() => navigate(ROUTES.campaigns))} data-testid="payment-success-create">
              {t('credits.successCreate')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={result === 'cancel'} onClose={() => close()} centered radius="lg" withCloseButton={false}>
        <Stack align="center" ta="center" gap="md" p="md" data-testid="payment-cancel">
          <ThemeIcon size={72} radius="xl" variant="light" color="orange">
            <IconAlertTriangle size={40} stroke={1.6} />
          </ThemeIcon>
          <Title order={3}>{t('credits.cancelTitle')}</Title>
          <Text c="dimmed">{t('credits.cancelText')}</Text>
          <Button onClick={() => close(onRetry)} data-testid="payment-cancel-retry">
            {t('credits.cancelRetry')}
          </Button>
        </Stack>
      </Modal>
    </>
  );
}
