import { linkPixelsSchema } from '@ecoa/shared';
import { Accordion, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DestinationInput, OpeningMessageField } from './destinationFields';
import type { LinkDraft } from './linkDraft';

/** The link's less used options: where visitors go when nobody is available, tracking pixels. */
export function LinkExtras({ draft, onChange }: { draft: LinkDraft; onChange: (patch: Partial<LinkDraft>) => void }) {
  const { t } = useTranslation();
  const fallback = draft.fallback;
  const setFallback = (patch: Partial<LinkDraft['fallback']>) => onChange({ fallback: { ...fallback, ...patch } });
  const setPixels = (patch: Partial<LinkDraft['pixels']>) => onChange({ pixels: { ...draft.pixels, ...patch } });
  const pixelError = (field: 'meta' | 'google', key: string) => {
    const value = draft.pixels[field].trim();
    return value && !linkPixelsSchema.shape[field].safeParse(value).success ? t(key) : undefined;
  };
  const opened = [
    ...(fallback.kind !== 'none' ? ['fallback'] : []),
    ...(draft.pixels.meta || draft.pixels.google ? ['pixels'] : []),
  ];
  return (
    <Accordion multiple variant="contained" defaultValue={opened}>
      <Accordion.Item value="fallback">
        <Accordion.Control data-testid="link-fallback-section">{t('links.form.fallback')}</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('links.form.fallbackHelp')}
            </Text>
            <Group gap="xs" align="end" wrap="nowrap">
              <Select
                w={200}
                label={t('links.form.kind')}
                value={fallback.kind}
                allowDeselect={false}
                data={[
                  { value: 'none', label: t('links.form.fallbackPage') },
                  { value: 'whatsapp', label: 'WhatsApp' },
                  { value: 'url', label: t('links.form.kindUrl') },
                ]}
                data-testid="link-fallback-kind"
                onChange={(kind) => setFallback({ kind: (kind ?? 'none') as LinkDraft['fallback']['kind'] })}
              />
              {fallback.kind !== 'none' && (
                <DestinationInput
                  kind={fallback.kind}
                  value={fallback.value}
                  testId="link-fallback-value"
                  onChange={(value) => setFallback({ value })}
                />
              )}
            </Group>
            {fallback.kind === 'whatsapp' && (
              <OpeningMessageField value={fallback.message} onChange={(message) => setFallback({ message })} />
            )}
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="pixels">
        <Accordion.Control data-testid="link-pixels-section">{t('links.form.pixels')}</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('links.form.pixelsHelp')}
            </Text>
            <Group grow>
              <TextInput
                label={t('links.form.metaPixel')}
                placeholder="123456789012345"
                value={draft.pixels.meta}
                error={pixelError('meta', 'links.form.metaPixelInvalid')}
                data-testid="link-pixel-meta"
                onChange={(e) => setPixels({ meta: e.currentTarget.value })}
              />
              <TextInput
                label={t('links.form.googleTag')}
                placeholder="G-XXXXXXXXXX"
                value={draft.pixels.google}
                error={pixelError('google', 'links.form.googleTagInvalid')}
                data-testid="link-pixel-google"
                onChange={(e) => setPixels({ google: e.currentTarget.value })}
              />
            </Group>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
