import {
  checkoutRequestSchema,
  formatBRL,
  LEDGER_MESSAGES,
  PAYMENT_ID_PLACEHOLDER,
  PIX_SPINNER_DELAY_MS,
  ROUTES,
  reaisToCentavos,
} from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Button,
  Divider,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCreditCard, IconMinus, IconPlus, IconQrcode } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, type FieldErrors, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { isApiError } from '../../platform/api';
import { notify } from '../../platform/notify';
import { useSession } from '../../platform/SessionProvider';
import { openSupportChat, useSupportWhatsapp } from '../../platform/support';
import { DialogButtons } from '../../ui/DialogButtons';
import { creditsApi } from './creditsApi';
import { useAccountBalance } from './money';
import { balanceRow, canPay, digitsOnly, purchaseTotal, showsMinimumNotice, stepQuantity } from './purchase';
import { creditsKeys } from './queryKeys';
import { TransferForm } from './TransferForm';

export type CreditsTab = 'buy' | 'transfer';

type Purchase = { quantity: number };
/**
 * The account-balance row's quantity is the card checkout's amount (one real per unit): the
 * server's rule for it (`checkoutRequestSchema`: whole reais, R$ 270 to R$ 100.000).
 */
const purchaseSchema = z.object({ quantity: checkoutRequestSchema.shape.amount });
/** Its refusals as the modal says them. */
const PURCHASE_REFUSALS: Record<string, string> = {
  [LEDGER_MESSAGES.minimumPurchase]: 'credits.minimumToast',
  [LEDGER_MESSAGES.maximumPurchase]: 'credits.maximumToast',
};

/**
 * Where the checkout sends the customer back: the site root with success=true / cancel=true.
 * The success URL also names the payment (the server fills `{PAYMENT_ID}` in), so the page can
 * confirm that payment before saying anything was added.
 */
export function returnUrls(origin = window.location.origin) {
  return {
    successUrl: `${origin}/?success=true&payment=${PAYMENT_ID_PLACEHOLDER}`,
    cancelUrl: `${origin}/?cancel=true`,
  };
}

/**
 * The buy-credits modal (spec section 2): not tied to a route; the overlay and Escape do not
 * close it. The account balance, the account-balance row (minus/plus by 100, digits only), the
 * summary, "Back", and the two payment buttons (disabled under R$ 270). A second tab turns
 * balance into channel credits.
 */
export function BuyCreditsModal({
  opened,
  onClose,
  initialTab = 'buy',
}: {
  opened: boolean;
  onClose: () => void;
  initialTab?: CreditsTab;
}) {
  const { t } = useTranslation();
  const supportNumber = useSupportWhatsapp();
  const navigate = useNavigate();
  const { user } = useSession();
  const [tab, setTab] = useState<CreditsTab>(initialTab);
  // The account-balance row's quantity (steps of 100: purchase.ts), checked by the checkout's rule.
  const form = useForm<Purchase>({ resolver: zodResolver(purchaseSchema), defaultValues: { quantity: 0 } });
  const quantity = form.watch('quantity');
  // The spec's 500 ms spinner before the PIX hand-off (no request is made).
  const [pixLoading, setPixLoading] = useState(false);
  const queryClient = useQueryClient();
  // Known before the click: a server without card payments says so on the button.
  const cardOptions = useQuery({
    queryKey: creditsKeys.checkoutOptions,
    queryFn: creditsApi.checkoutOptions,
    enabled: opened,
    staleTime: 5 * 60_000,
  });
  const cardUnavailable = cardOptions.data?.card === 'unavailable';

  const rows = [balanceRow(t('credits.balanceRow'), quantity)];
  const total = purchaseTotal(rows);
  const payable = canPay(total);
  const { money } = useAccountBalance();

  const checkout = useMutation({
    mutationFn: (amount: number) => creditsApi.checkout({ amount, ...returnUrls() }),
    onError: async (err) => {
      // Spec section 8: the status goes to the console and the state becomes failed; no message.
      console.error('checkout failed', isApiError(err) ? err.status : err);
      // The server stopped taking cards since the options were read: the button says so now.
      // An options read still in flight would overwrite this answer with its older one: cancel it.
      if (isApiError(err) && err.code === 'CARD_PAYMENTS_NOT_CONFIGURED') {
        await queryClient.cancelQueries({ queryKey: creditsKeys.checkoutOptions });
        queryClient.setQueryData(creditsKeys.checkoutOptions, { card: 'unavailable' });
      }
    },
  });
  const checkoutState = checkout.isPending
    ? 'loading'
    : checkout.isSuccess
      ? 'ready'
      : checkout.isError
        ? 'failed'
        : 'idle';
  const setQuantity = (update: (q: number) => number) => form.setValue('quantity', update(form.getValues('quantity')));

  const close = () => {
    form.reset({ quantity: 0 });
    checkout.reset();
    setTab(initialTab);
    onClose();
  };

  const refused = (errors: FieldErrors<Purchase>) =>
    notify.error(t(PURCHASE_REFUSALS[errors.quantity?.message ?? ''] ?? 'credits.minimumToast'));

  const payWithCard = form.handleSubmit(() => checkout.mutate(total), refused);

  // PIX is handed to support (no request): its one rule is the minimum.
  const payWithPix = () => {
    if (!payable) {
      notify.error(t('credits.minimumToast'));
      return;
    }
    setPixLoading(true);
    window.setTimeout(() => {
      setPixLoading(false);
      const opened = openSupportChat(
        supportNumber,
        t('credits.pixMessage', {
          amount: formatBRL(total * 100),
          email: user?.email || t('credits.emailNotInformed'),
        }),
      );
      if (!opened) notify.error(t('errors.handoffFailed'));
    }, PIX_SPINNER_DELAY_MS);
  };

  const continueToPartner = (url: string) => {
    const tabRef = window.open(url, '_blank');
    if (tabRef) tabRef.opener = null;
    close();
    void navigate(ROUTES.campaigns);
  };

  return (
    <>
      <Modal
        opened={opened && checkoutState !== 'ready'}
        onClose={close}
        closeOnClickOutside={false}
        closeOnEscape={false}
        withCloseButton={false}
        centered
        size="lg"
        radius="lg"
        title={t('credits.modalTitle')}
        styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-xl)' } }}
      >
        <Stack gap="md" data-testid="buy-credits-modal">
          <Paper withBorder p="sm" radius="md">
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {t('credits.accountBalance')}
              </Text>
              <Text fw={700} data-testid="buy-credits-balance">
                {formatBRL(reaisToCentavos(money) ?? 0)}
              </Text>
            </Group>
          </Paper>
          <Tabs value={tab} onChange={(v) => setTab((v as CreditsTab) ?? 'buy')}>
            <Tabs.List grow>
              <Tabs.Tab value="buy" data-testid="tab-buy">
                {t('credits.tabBuy')}
              </Tabs.Tab>
              <Tabs.Tab value="transfer" data-testid="tab-transfer">
                {t('credits.tabTransfer')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="buy" pt="md">
              <Stack gap="md">
                {rows.map((row) => (
                  <Stack key={row.tipo} gap={4}>
                    <Group justify="space-between" wrap="nowrap" data-testid="purchase-row">
                      <Text fw={600}>{row.tipo}</Text>
                      <Group gap="xs" wrap="nowrap">
                        <ActionIcon
                          variant="default"
                          size="lg"
                          aria-label={t('credits.decrease')}
                          data-testid="purchase-minus"
                          onClick={() => setQuantity((q) => stepQuantity(q, -1))}
                        >
                          <IconMinus size={16} />
                        </ActionIcon>
                        <Controller
                          control={form.control}
                          name="quantity"
                          render={({ field }) => (
                            <TextInput
                              aria-label={t('credits.quantity')}
                              data-testid="purchase-quantity"
                              inputMode="numeric"
                              w={110}
                              value={String(field.value)}
                              onChange={(e) => field.onChange(digitsOnly(e.currentTarget.value))}
                              onBlur={field.onBlur}
                            />
                          )}
                        />
                        <ActionIcon
                          variant="default"
                          size="lg"
                          aria-label={t('credits.increase')}
                          data-testid="purchase-plus"
                          onClick={() => setQuantity((q) => stepQuantity(q, 1))}
                        >
                          <IconPlus size={16} />
                        </ActionIcon>
                      </Group>
                      <Text fw={600} w={120} ta="right">
                        {row.valor}
                      </Text>
                    </Group>
                  </Stack>
                ))}
                {showsMinimumNotice(total) && (
                  <Alert color="orange" variant="light" data-testid="purchase-minimum-notice">
                    {t('credits.minimumNotice')}
                  </Alert>
                )}
                <Paper withBorder p="md" radius="md">
                  <Text fw={700} mb="xs">
                    {t('credits.summary')}
                  </Text>
                  <Group justify="space-between">
                    <Text size="sm">{t('credits.subtotal')}</Text>
                    <Text size="sm" data-testid="purchase-subtotal">
                      {formatBRL(total * 100)}
                    </Text>
                  </Group>
                  <Divider my="xs" />
                  <Group justify="space-between">
                    <Text fw={700}>{t('credits.total')}</Text>
                    <Text fw={700} data-testid="purchase-total">
                      {formatBRL(total * 100)}
                    </Text>
                  </Group>
                </Paper>
                <Group justify="space-between">
                  <Button variant="default" onClick={close} data-testid="purchase-back">
                    {t('credits.back')}
                  </Button>
                  <Group gap="sm">
                    <Button
                      leftSection={<IconCreditCard size={18} />}
                      disabled={!payable || cardUnavailable}
                      loading={checkoutState === 'loading'}
                      onClick={() => void payWithCard()}
                      data-testid="pay-card"
                      data-state={checkoutState}
                    >
                      {cardUnavailable ? t('credits.payCardUnavailable') : t('credits.payCard')}
                    </Button>
                    <Button
                      color="teal"
                      leftSection={pixLoading ? <Loader size={16} color="white" /> : <IconQrcode size={18} />}
                      disabled={!payable || pixLoading}
                      onClick={payWithPix}
                      data-testid="pay-pix"
                    >
                      {t('credits.payPix')}
                    </Button>
                  </Group>
                </Group>
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="transfer" pt="md">
              <Stack>
                <TransferForm onDone={close} />
                <Group>
                  <Button variant="default" onClick={close}>
                    {t('credits.back')}
                  </Button>
                </Group>
              </Stack>
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </Modal>
      <Modal
        opened={opened && checkoutState === 'ready'}
        onClose={close}
        closeOnClickOutside={false}
        centered
        radius="lg"
        title={t('credits.partnerTitle')}
        styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      >
        <Stack data-testid="partner-dialog">
          <Text>{t('credits.partnerText')}</Text>
          <DialogButtons
            cancelLabel={t('credits.partnerBack')}
            onCancel={close}
            cancelTestId="partner-back"
            confirmLabel={t('credits.partnerContinue')}
            onConfirm={() => checkout.data && continueToPartner(checkout.data.checkout_url)}
            confirmTestId="partner-continue"
          />
        </Stack>
      </Modal>
    </>
  );
}
