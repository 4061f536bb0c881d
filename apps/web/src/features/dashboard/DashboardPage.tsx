import '@mantine/charts/styles.css';
import { CHANNELS, CREDIT_TYPES, type DashboardSummary } from '@ecoa/shared';
import { BarChart } from '@mantine/charts';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { intlLocale } from '../../platform/i18n';
import { useSession } from '../../platform/SessionProvider';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { StatCard } from '../../ui/StatCard';
import { CampaignsTable, campaignsApi, campaignsPollInterval, summaryPollFacts } from '../campaigns';
import { campaignsKeys } from '../campaigns/queryKeys';
import { BalanceCard, refreshMoney, useAccountBalance, useCredits } from '../credits';

const CHANNEL_COLORS: Record<string, string> = {
  sms_short: 'blue.6',
  sms_flash: 'cyan.6',
  voice_torpedo: 'grape.6',
  ura: 'violet.6',
  whatsapp: 'teal.6',
  rcs: 'orange.6',
};

const pollInterval = (d: DashboardSummary | undefined) =>
  d ? campaignsPollInterval([...d.running, ...d.recent].map(summaryPollFacts)) : false;

/** A card of campaigns (running, recent): its title and link, the table, or what to say when there is none. */
/** The dashboard's two campaign cards: their title, and what each says when it has none. */
const CAMPAIGN_CARDS = {
  running: { title: 'dashboard.running', empty: 'dashboard.noneRunning' },
  recent: { title: 'dashboard.recent', empty: 'dashboard.noCampaigns' },
} as const;

function CampaignsCard({
  kind,
  action,
  items,
}: {
  kind: keyof typeof CAMPAIGN_CARDS;
  action: ReactNode;
  /** Not read yet: nothing is said. */
  items: DashboardSummary['recent'] | undefined;
}) {
  const { t } = useTranslation();
  const title = t(CAMPAIGN_CARDS[kind].title);
  const emptyText = t(CAMPAIGN_CARDS[kind].empty);
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={4}>{title}</Title>
        {action}
      </Group>
      {!items ? null : items.length > 0 ? (
        <CampaignsTable items={items} compact />
      ) : (
        <Text c="dimmed" size="sm">
          {emptyText}
        </Text>
      )}
    </Card>
  );
}

/** `/`: the balance, credits per channel, campaigns now, 30 days of sends per channel, recent campaigns, first steps. */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const { openBuyCredits } = useCredits();
  const { balance, money } = useAccountBalance();
  const queryClient = useQueryClient();
  const summary = useQuery({
    queryKey: campaignsKeys.dashboardSummary,
    queryFn: campaignsApi.dashboard,
    // At the pace of the liveliest campaign shown (pollInterval.ts); still when none can move.
    refetchInterval: (q) => pollInterval(q.state.data),
    refetchOnWindowFocus: (q) => (pollInterval(q.state.data) === false ? false : 'always'),
  });
  // When the campaigns stop moving, the credits they reserved are settled: read the balance once more.
  const polling = pollInterval(summary.data) !== false;
  const wasPolling = useRef(false);
  useEffect(() => {
    if (wasPolling.current && !polling) void refreshMoney(queryClient);
    wasPolling.current = polling;
  }, [polling, queryClient]);

  const locale = intlLocale(i18n.language);
  const number = new Intl.NumberFormat(locale);
  // No number before it is known: a failed or pending read is never shown as a real zero.
  const figure = (value: number | undefined) => (value === undefined ? '—' : number.format(value));
  const data = summary.data;
  const steps = data?.firstSteps;
  const showSteps = steps && !(steps.hasList && steps.hasCredits && steps.hasCampaign);
  const days = [...new Set((data?.daily ?? []).map((d) => d.day))].sort();
  const chart = days.map((day) => {
    const row: Record<string, string | number> = {
      day: new Date(`${day}T12:00:00Z`).toLocaleDateString(locale, { day: '2-digit', month: '2-digit' }),
    };
    for (const d of data!.daily.filter((x) => x.day === day)) row[d.channel] = d.sent;
    return row;
  });
  const channelsUsed = CHANNELS.filter((c) => data?.daily.some((d) => d.channel === c));

  const createCampaign = (
    <Button component={Link} to="/campanhas/criar-campanha" size="xs">
      {t('nav.createCampaign')}
    </Button>
  );
  const seeAll = (
    <Anchor component={Link} to="/campanhas" size="sm">
      {t('dashboard.seeAll')}
    </Anchor>
  );
  return (
    <Stack gap="lg" data-testid="dashboard">
      <Title order={2}>{t('dashboard.greeting', { name: user?.name ?? '' })}</Title>
      {showSteps && (
        <Card withBorder radius="lg" padding="lg" data-testid="dashboard-first-steps">
          <Title order={4} mb="sm">
            {t('dashboard.firstSteps')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {[
              { done: steps.hasList, label: t('dashboard.stepList'), to: '/listas' },
              { done: steps.hasCredits, label: t('dashboard.stepCredits'), onClick: () => openBuyCredits('buy') },
              { done: steps.hasCampaign, label: t('dashboard.stepCampaign'), to: '/campanhas/criar-campanha' },
            ].map((s) => (
              <Group key={s.label} gap="sm" wrap="nowrap">
                <ThemeIcon variant="light" color={s.done ? 'teal' : 'gray'} radius="xl">
                  {s.done ? <IconCircleCheck size={18} /> : <IconCircleDashed size={18} />}
                </ThemeIcon>
                {s.to ? (
                  <Anchor component={Link} to={s.to} td={s.done ? 'line-through' : undefined}>
                    {s.label}
                  </Anchor>
                ) : (
                  <Anchor component="button" onClick={s.onClick} td={s.done ? 'line-through' : undefined}>
                    {s.label}
                  </Anchor>
                )}
              </Group>
            ))}
          </SimpleGrid>
        </Card>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <BalanceCard money={money} onBuy={() => openBuyCredits('buy')} />
        <Card withBorder radius="lg" padding="lg">
          <Title order={5} mb="sm">
            {t('credits.balances')}
          </Title>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
            {CREDIT_TYPES.filter((type) => type !== 'BALANCE').map((type) => (
              <Stack key={type} gap={0} data-testid={`dashboard-credits-${type}`}>
                <Text size="xs" c="dimmed">
                  {t(`credits.types.${type}`)}
                </Text>
                <Text fw={700}>{figure(balance.data?.credits[type]?.available ?? (balance.data ? 0 : undefined))}</Text>
              </Stack>
            ))}
          </SimpleGrid>
          <LoadErrorAlert
            query={balance}
            mt="sm"
            fallbackKey="loadError.balance"
            data-testid="dashboard-balance-error"
          />
        </Card>
      </SimpleGrid>
      <LoadErrorAlert query={summary} fallbackKey="loadError.dashboard" data-testid="dashboard-error" />
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        {(
          [
            ['sent30', data?.totals.sent, 'dashboard-sent'],
            ['delivered30', data?.totals.delivered, 'dashboard-delivered'],
            ['campaigns', data?.totals.campaigns, undefined],
          ] as const
        ).map(([key, value, testId]) => (
          <StatCard
            key={key}
            label={t(`dashboard.${key}`)}
            value={figure(value)}
            fz={26}
            padding="md"
            valueTestId={testId}
          />
        ))}
      </SimpleGrid>
      <Card withBorder radius="lg" padding="lg" data-testid="dashboard-chart">
        <Title order={4} mb="md">
          {t('dashboard.chartTitle')}
        </Title>
        {!data ? null : chart.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('dashboard.noSends')}
          </Text>
        ) : (
          <BarChart
            h={240}
            data={chart}
            dataKey="day"
            type="stacked"
            withLegend
            series={channelsUsed.map((c) => ({
              name: c,
              label: t(`channels.names.${c}`),
              color: CHANNEL_COLORS[c] ?? 'gray.6',
            }))}
          />
        )}
      </Card>
      <CampaignsCard kind="running" action={createCampaign} items={data?.running} />
      <CampaignsCard kind="recent" action={seeAll} items={data?.recent} />
    </Stack>
  );
}
