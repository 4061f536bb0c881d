import { Button, Group, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconWallet } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatReais } from '../credits';

export function BalancePopover({ money, onOpenCredits }: { money: number; onOpenCredits: () => void }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withArrow shadow="md" width={260}>
      <Popover.Target>
        <UnstyledButton
          onClick={() => setOpened((o) => !o)}
          data-testid="balance-popover"
          // The visible amount is part of the name (WCAG 2.5.3, label in name: voice control says what it sees).
          aria-label={`${t('shell.balance')} ${formatReais(money)}`}
        >
          <Group gap={6} wrap="nowrap">
            <IconWallet size={20} stroke={1.7} />
            <Text fw={600} size="sm" data-testid="header-balance">
              {formatReais(money)}
            </Text>
          </Group>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text size="xs" c="dimmed">
            {t('shell.balance')}
          </Text>
          <Text fw={700} size="xl">
            {formatReais(money)}
          </Text>
          <Button
            fullWidth
            onClick={() => {
              setOpened(false);
              onOpenCredits();
            }}
            data-testid="balance-buy"
          >
            {t('shell.buyCredits')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
