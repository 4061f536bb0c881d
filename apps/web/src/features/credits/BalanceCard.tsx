import {
  BREAKPOINT_LOGIN_SMALL_PX,
  BREAKPOINT_SIDEBAR_ITEMS_PX,
  formatBRL,
  reaisToCentavos,
  roundCentavosToWholeReais,
} from '@ecoa/shared';
import { Button, Card, Group, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconWallet } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The balance card shows whole reais: 270.5 → "R$ 271". */
export function formatWholeReais(money: number): string {
  const whole = roundCentavosToWholeReais(reaisToCentavos(money) ?? 0);
  return formatBRL(whole * 100).replace(/,00$/, '');
}

/**
 * "Your credits" (spec section 2): the account balance rounded to a whole number, a "Buy
 * credits" button (hidden on tablet), or the no-balance message when the balance rounds to zero.
 */
export function BalanceCard({ money, onBuy }: { money: number; onBuy: () => void }) {
  const { t } = useTranslation();
  const isTablet =
    useMediaQuery(
      `(min-width: ${BREAKPOINT_LOGIN_SMALL_PX + 1}px) and (max-width: ${BREAKPOINT_SIDEBAR_ITEMS_PX}px)`,
    ) ?? false;
  const empty = roundCentavosToWholeReais(reaisToCentavos(money) ?? 0) === 0;
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="balance-card">
      {/* The button keeps its whole label: short of room (a phone, a long amount) it goes below. */}
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap={6}>
            <IconWallet size={18} />
            <Title order={4}>{t('credits.yourCredits')}</Title>
          </Group>
          {empty ? (
            <Text c="dimmed" mt="sm" data-testid="balance-card-empty">
              {t('credits.noBalance')}
            </Text>
          ) : (
            <Text fz={32} fw={800} mt="xs" data-testid="balance-card-amount">
              {formatWholeReais(money)}
            </Text>
          )}
        </div>
        {!isTablet && (
          <Button onClick={onBuy} style={{ flexShrink: 0 }} data-testid="balance-card-buy">
            {t('credits.buyCredits')}
          </Button>
        )}
      </Group>
    </Card>
  );
}
