/** The fields a link's target and its fallback share: where to (a WhatsApp number or a page) and the opening message. */
import { Select, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type DestinationKind = 'none' | 'whatsapp' | 'url';

/** Where to send the visitor: WhatsApp, a page, or (the fallback only) Ecoa's own "nobody available" page. */
export function DestinationKindSelect<K extends DestinationKind>({
  kinds,
  value,
  onChange,
  w,
  testId,
}: {
  /** The kinds offered, the first being the default. */
  kinds: readonly [K, ...K[]];
  value: K;
  onChange: (kind: K) => void;
  w: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const labels: Record<DestinationKind, string> = {
    none: t('links.form.fallbackPage'),
    whatsapp: 'WhatsApp',
    url: t('links.form.kindUrl'),
  };
  return (
    <Select
      w={w}
      label={t('links.form.kind')}
      value={value}
      allowDeselect={false}
      data={kinds.map((kind) => ({ value: kind, label: labels[kind] }))}
      data-testid={testId}
      onChange={(kind) => onChange((kind ?? kinds[0]) as K)}
    />
  );
}

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
