import type { CampaignSummary } from '@ecoa/shared';
import { Anchor, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { intlLocale } from '../../platform/i18n';
import { deliveryRate, progressPercent } from './format';
import { browserShowsSaoPaulo, saoPauloDateTime } from './times';

/**
 * One campaign's pieces as the campaigns table and the phone's cards both show them: its name
 * (a link to where it continues), its progress, its figures.
 */

/** A user's draft opens in the wizard, anything else in its detail; administrators see names only. */
export function campaignUrl(c: Pick<CampaignSummary, 'id' | 'status'>, admin: boolean): string {
  return c.status === 'DRAFT' && !admin ? `/campanhas/criar-campanha?rascunho=${c.id}` : `/campanhas/${c.id}`;
}

export function CampaignName({ campaign: c, admin }: { campaign: CampaignSummary; admin: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap={0} miw={0}>
      {admin ? (
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {c.name}
        </Text>
      ) : (
        <Anchor
          component={Link}
          to={campaignUrl(c, admin)}
          fw={600}
          style={{ overflowWrap: 'anywhere' }}
          data-testid="campaign-link"
        >
          {c.name}
        </Anchor>
      )}
      <Text size="xs" c="dimmed">
        {t(`channels.names.${c.channel}`)}
      </Text>
    </Stack>
  );
}

export function CampaignProgress({ campaign: c }: { campaign: CampaignSummary }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  return (
    <Stack gap={4}>
      <Progress
        value={progressPercent(c)}
        size="sm"
        animated={c.status === 'RUNNING'}
        aria-label={t('app.a11y.campaignProgress', { name: c.name })}
        data-testid="campaign-progress"
      />
      <Text size="xs" c="dimmed" data-testid="campaign-progress-text">
        {number.format(c.done)} / {number.format(c.total)}
      </Text>
    </Stack>
  );
}

/** The figures beside the progress: delivery rate, credits used, the date it was created or is scheduled for. */
export function useCampaignFigures() {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const number = new Intl.NumberFormat(locale);
  return {
    /** "(horário de Brasília)" after the date's label when the browser's clock is not São Paulo's. */
    zone: browserShowsSaoPaulo() ? '' : ` (${t('campaigns.timeZone.brasilia')})`,
    rate: (c: CampaignSummary) => {
      const rate = deliveryRate(c);
      return rate === null ? '—' : percent.format(rate);
    },
    credits: (c: CampaignSummary) => number.format(c.creditsUsed),
    when: (c: CampaignSummary) =>
      saoPauloDateTime(c.scheduledAt && c.status === 'SCHEDULED' ? c.scheduledAt : c.createdAt, locale),
  };
}
