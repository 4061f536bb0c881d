import { MODAL_CLOSE_DELAY_MS, ROUTES } from '@ecoa/shared';
import { Button, Group, Loader, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconConfetti } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { isApiError } from '../../platform/api';
import { creditsApi } from './creditsApi';
import { refreshMoney } from './money';
import { creditsKeys } from './queryKeys';

/** How often the card return asks where its payment stands, and for how long at most. */
export const CONFIRM_POLL_MS = 2000;
export const CONFIRM_FOR_MS = 2 * 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What the URL asks for: `success=true` with the payment it names (`payment=<id>`, put in the
 * success URL by the checkout), `success=true` naming none, or `cancel=true`. `success` wins.
 */
export function paymentResultOf(
  search: string,
): { kind: 'success'; paymentId: string | null } | { kind: 'cancel' } | null {
  const params = new URLSearchParams(search);
  if (params.get('success') === 'true') {
    const id = params.get('payment');
    return { kind: 'success', paymentId: id && UUID.test(id) ? id : null };
  }
  if (params.get('cancel') === 'true') return { kind: 'cancel' };
  return null;
}

/** The same search without the payment-result parameters. */
export function withoutResultParams(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('success');
  params.delete('cancel');
  params.delete('payment');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

type Shown = 'confirming' | 'success' | 'cancel' | null;

/**
 * The payment result on any page (spec section 2). `success=true` alone proves nothing (anyone
 * can open `/?success=true`, and the processor's webhook may not have credited anything yet):
 * the payment the URL names is read from the server — "confirming…" while it is PENDING, asked
 * again every 2 s for at most 2 minutes (then it says the confirmation is late) — and only a
 * SUCCEEDED payment of this user shows the spec's success modal, with confetti and the money
 * refreshed; a FAILED or CANCELED one shows the cancel modal; no payment of this user, nothing.
 * `cancel=true` shows the cancel modal, whose "Tentar novamente" reopens the buy-credits modal.
 * The parameters leave the URL when a modal closes; each result is handled once.
 */
export function PaymentResult({
  onRetry,
  pollMs = CONFIRM_POLL_MS,
  confirmForMs = CONFIRM_FOR_MS,
}: {
  onRetry: () => void;
  pollMs?: number;
  confirmForMs?: number;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<Shown>(null);
  const [paymentId, setPaymentId] = useState<string | null>(null);
  const [late, setLate] = useState(false);
  const handled = useRef(false);

  const here = useRef(location);
  here.current = location;
  const clearParams = useCallback(
    () =>
      navigate(
        { pathname: here.current.pathname, search: withoutResultParams(here.current.search) },
        { replace: true },
      ),
    [navigate],
  );

  useEffect(() => {
    const found = paymentResultOf(location.search);
    if (!found || handled.current) return;
    handled.current = true;
    if (found.kind === 'cancel') {
      setShown('cancel');
    } else if (found.paymentId) {
      setPaymentId(found.paymentId);
      setLate(false);
      setShown('confirming');
    } else {
      // Nothing to confirm: no modal, and the URL no longer claims a success.
      handled.current = false;
      void clearParams();
    }
  }, [location.search, clearParams]);

  const confirming = shown === 'confirming' && paymentId !== null;
  useEffect(() => {
    if (!confirming) return;
    const timer = window.setTimeout(() => setLate(true), confirmForMs);
    return () => window.clearTimeout(timer);
  }, [confirming, confirmForMs]);

  const payment = useQuery({
    queryKey: creditsKeys.paymentStatus(paymentId),
    queryFn: () => creditsApi.paymentStatus(paymentId!),
    enabled: confirming,
    staleTime: 0,
    gcTime: 0,
    // A lost answer is asked again on the next turn; "not yours" (404) is final.
    retry: false,
    refetchInterval: confirming && !late ? pollMs : false,
  });

  const status = payment.data?.status;
  const notFound = isApiError(payment.error) && (payment.error.status === 404 || payment.error.status === 400);
  useEffect(() => {
    if (!confirming) return;
    if (status === 'SUCCEEDED') {
      setShown('success');
      void refreshMoney(queryClient);
      // Only a paid user ever sees confetti: its code is a chunk fetched at this moment.
      import('canvas-confetti')
        .then(({ default: confetti }) => confetti({ particleCount: 160, spread: 80, origin: { y: 0.6 } }))
        .catch(() => {
          // no canvas (tests, old browsers) or the chunk did not arrive: the modal is enough
        });
    } else if (status === 'FAILED' || status === 'CANCELED') {
      setShown('cancel');
    } else if (status === 'REFUNDED' || notFound) {
      // Not this user's payment (or long settled and refunded): nothing to celebrate.
      setShown(null);
      handled.current = false;
      void clearParams();
    }
  }, [confirming, status, notFound, queryClient, clearParams]);

  // Spec: "Modal close animation delay 300 ms". The modal plays its closing animation first;
  // then the parameters leave the URL ("after the modal closes") and whatever comes next (the
  // buy-credits modal, the campaigns page) appears, never over a dialog still fading out.
  const closeTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(closeTimer.current), []);
  const close = (then?: () => void) => {
    setShown(null);
    setPaymentId(null);
    window.clearTimeout(closeTimer.current);
    closeTimer.current = window.setTimeout(() => {
      void clearParams();
      handled.current = false;
      then?.();
    }, MODAL_CLOSE_DELAY_MS);
  };

  return (
    <>
      <ResultModal
        opened={shown === 'confirming'}
        onClose={() => close()}
        testId="payment-confirming"
        icon={late ? resultIcon(IconAlertTriangle, 'yellow') : <Loader size="lg" />}
        title={t('credits.confirmPayment.title')}
      >
        <Text c="dimmed" data-testid={late ? 'payment-confirming-late' : undefined}>
          {late ? t('credits.confirmPayment.late') : t('credits.confirmPayment.text')}
        </Text>
        <Button variant="default" onClick={() => close()} data-testid="payment-confirming-close">
          {t('credits.confirmPayment.close')}
        </Button>
      </ResultModal>
      <ResultModal
        opened={shown === 'success'}
        onClose={() => close()}
        testId="payment-success"
        icon={resultIcon(IconConfetti, 'teal')}
        title={t('credits.successTitle')}
      >
        <Text c="dimmed">{t('credits.successText')}</Text>
        <Text size="sm" data-testid="payment-success-convert">
          {t('credits.confirmPayment.convertHint')}
        </Text>
        <Group justify="center">
          <Button variant="default" onClick={() => close()} data-testid="payment-success-back">
            {t('credits.successBack')}
          </Button>
          <Button onClick={() => close(() => navigate(ROUTES.campaigns))} data-testid="payment-success-create">
            {t('credits.successCreate')}
          </Button>
        </Group>
      </ResultModal>
      <ResultModal
        opened={shown === 'cancel'}
        onClose={() => close()}
        testId="payment-cancel"
        icon={resultIcon(IconAlertTriangle, 'orange')}
        title={t('credits.cancelTitle')}
      >
        <Text c="dimmed">{t('credits.cancelText')}</Text>
        <Button onClick={() => close(onRetry)} data-testid="payment-cancel-retry">
          {t('credits.cancelRetry')}
        </Button>
      </ResultModal>
    </>
  );
}

/** The big round icon at the top of a result dialog. */
const resultIcon = (Icon: typeof IconConfetti, color: string) => (
  <ThemeIcon size={72} radius="xl" variant="light" color={color}>
    <Icon size={40} stroke={1.6} />
  </ThemeIcon>
);

/** One of the payment's dialogs: its icon and title centred, then its text and buttons; no close button. */
function ResultModal({
  opened,
  onClose,
  testId,
  icon,
  title,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  testId: string;
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} centered radius="lg" withCloseButton={false}>
      <Stack align="center" ta="center" gap="md" p="md" data-testid={testId}>
        {icon}
        <Title order={3}>{title}</Title>
        {children}
      </Stack>
    </Modal>
  );
}
