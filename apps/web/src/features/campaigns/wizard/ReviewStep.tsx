import type { CampaignEstimate } from '@ecoa/shared';
import { Alert, Button, Group, List, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../../platform/i18n';
import { TestSendButton } from '../../channels';
import { useCredits } from '../../credits';
import { saoPauloDateTime } from '../times';
import { saoPauloIso, type WizardDraft } from './draft';
import { Figure } from './Figure';
import { MessageExample } from './MessageExample';
import { problemText } from './problemText';
import { partsEachText, withoutAccentsText } from './reviewTexts';

/** The chosen São Paulo date and time in the user's locale ("—" when none was chosen yet). */
function scheduledText(local: string, locale: string): string {
  const iso = saoPauloIso(local);
  return iso ? saoPauloDateTime(iso, locale) : '—';
}

/** Recipients, parts and credits needed against the credits available; what is missing; a test first. */
export function ReviewStep({ draft, estimate }: { draft: WizardDraft; estimate: CampaignEstimate | undefined }) {
  const { t, i18n } = useTranslation();
  const { openBuyCredits } = useCredits();
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const n = (v: number | undefined) => (v === undefined ? '…' : number.format(v));
  const type = estimate ? t(`credits.types.${estimate.creditType}`) : '';
  const partsEach = estimate ? partsEachText(t, estimate.partsPerMessage) : null;
  const withoutAccents = estimate ? withoutAccentsText(t, estimate, number) : null;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Figure
          label={t('campaignWizard.recipients.recipients')}
          value={n(estimate?.recipients)}
          testId="review-recipients"
          strong
        />
        <Figure label={t('campaignWizard.review.parts')} value={n(estimate?.parts)} testId="review-parts" />
        <Figure
          label={t('campaignWizard.review.needed', { type })}
          value={n(estimate?.creditsNeeded)}
          testId="review-needed"
        />
        <Figure
          label={t('campaignWizard.review.available', { type })}
          value={n(estimate?.available)}
          testId="review-available"
        />
      </SimpleGrid>
      {partsEach && (
        <Text size="sm" c="dimmed" data-testid="review-parts-each">
          {partsEach}
        </Text>
      )}
      {withoutAccents && (
        <Text size="sm" c="teal" data-testid="review-without-accents">
          {withoutAccents}
        </Text>
      )}
      {estimate?.example && <MessageExample example={estimate.example} />}
      <Text size="sm" c="dimmed" data-testid="review-when">
        {/* The same choice the start button and the start request are made of (see startRequest). */}
        {draft.when === 'later'
          ? t('campaignWizard.review.at', { when: scheduledText(draft.scheduleAt, intlLocale(i18n.language)) })
          : t('campaignWizard.review.now')}{' '}
        {t('campaignWizard.review.window', { start: draft.window.start, end: draft.window.end })}
      </Text>
      {estimate && estimate.shortfall > 0 && (
        <Alert color="orange" title={t('campaignWizard.review.shortfallTitle')} data-testid="review-shortfall">
          <Stack gap="xs">
            <Text size="sm">{t('campaignWizard.review.shortfall', { count: estimate.shortfall, type })}</Text>
            <Group>
              <Button size="xs" onClick={() => openBuyCredits('transfer')} data-testid="review-buy">
                {t('campaignWizard.review.buy')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {estimate && estimate.problems.length > 0 && (
        <Alert color="red" title={t('campaignWizard.review.problems')} data-testid="review-problems">
          <List size="sm">
            {estimate.problems.map((p) => (
              <List.Item key={p.code}>{problemText(t, p.code)}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Group>
        <TestSendButton label={t('campaignWizard.review.test')} iconSize={16} data-testid="review-test-send" />
      </Group>
    </Stack>
  );
}
