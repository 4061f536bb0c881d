/** The fields a link's target and its fallback share: where to (a WhatsApp number or a page) and the opening message. */
import { Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function DestinationInput({
  kind,
  value,
  onChange,
  testId,
}: {
  kind: 'whatsapp' | 'url';
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      style={{ flex: 1 }}
      label={kind === 'url' ? t('links.form.url') : t('links.form.phone')}
      placeholder={kind === 'url' ? 'https://' : '(11) 91234-5678'}
      value={value}
      data-testid={testId}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

/** The WhatsApp message the chat opens with, placeholders allowed. */
export function OpeningMessageField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('links.form.message')}
      description={t('links.form.messageHelp')}
      autosize
      minRows={1}
      maxLength={500}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
