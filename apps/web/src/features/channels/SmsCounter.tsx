import { analyzeSms, removeAccents } from '@ecoa/shared';
import { Badge, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The live counter under an SMS text: characters, encoding (GSM-7 or UCS-2, from the same code
 * the server charges with), parts, and a one-click "remove accents" when accents force UCS-2.
 */
export function SmsCounter({
  text,
  onChange,
  linkSample,
}: {
  text: string;
  onChange: (text: string) => void;
  /** An address as long as each recipient's tracked link: `{link}` counts as that. */
  linkSample?: string;
}) {
  const { t } = useTranslation();
  const sms = analyzeSms(linkSample ? text.replaceAll('{link}', linkSample) : text);
  const ucs2 = sms.encoding === 'ucs2';
  const fixed = ucs2 ? removeAccents(text) : text;
  const canFix = ucs2 && fixed !== text && analyzeSms(fixed).encoding === 'gsm7';
  return (
    <Group justify="space-between" gap="xs" data-testid="sms-counter">
      <Group gap="xs">
        <Text size="xs" c="dimmed" data-testid="sms-characters">
          {t('channels.sms.characters', { count: sms.characters })}
        </Text>
        <Badge size="sm" variant="light" color={ucs2 ? 'orange' : 'teal'} data-testid="sms-encoding">
          {ucs2 ? 'UCS-2' : 'GSM-7'}
        </Badge>
        <Text size="xs" c="dimmed" data-testid="sms-parts">
          {t('channels.sms.parts', { count: sms.parts.length })}
        </Text>
      </Group>
      {canFix && (
        <Button size="compact-xs" variant="subtle" onClick={() => onChange(fixed)} data-testid="sms-remove-accents">
          {t('channels.sms.removeAccents')}
        </Button>
      )}
    </Group>
  );
}
