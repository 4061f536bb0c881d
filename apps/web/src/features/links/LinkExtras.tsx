import { linkPixelsSchema } from '@ecoa/shared';
import { Accordion, Group, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DestinationInput, DestinationKindSelect, OpeningMessageField } from './destinationFields';
import type { LinkDraft } from './linkDraft';

/** The tracking pixels a link can fire: Meta's pixel id and Google's tag, each with the shape of its id. */
const PIXELS = [
  { field: 'meta', name: 'metaPixel', placeholder: '123456789012345' },
  { field: 'google', name: 'googleTag', placeholder: 'G-XXXXXXXXXX' },
] as const;

/** One folding section of the extras: its title, what it is for, its fields. */
function ExtrasSection({ name, children }: { name: 'fallback' | 'pixels'; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Accordion.Item value={name}>
      <Accordion.Control data-testid={`link-${name}-section`}>{t(`links.form.${name}`)}</Accordion.Control>
      <Accordion.Panel>
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t(`links.form.${name}Help`)}
          </Text>
          {children}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

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
      <ExtrasSection name="fallback">
        <Group gap="xs" align="end" wrap="nowrap">
          <DestinationKindSelect
            w={200}
            kinds={['none', 'whatsapp', 'url']}
            value={fallback.kind}
            testId="link-fallback-kind"
            onChange={(kind) => setFallback({ kind })}
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
      </ExtrasSection>
      <ExtrasSection name="pixels">
        <Group grow>
          {PIXELS.map(({ field, name, placeholder }) => (
            <TextInput
              key={field}
              label={t(`links.form.${name}`)}
              placeholder={placeholder}
              value={draft.pixels[field]}
              error={pixelError(field, `links.form.${name}Invalid`)}
              data-testid={`link-pixel-${field}`}
              onChange={(e) => setPixels({ [field]: e.currentTarget.value })}
            />
          ))}
        </Group>
      </ExtrasSection>
    </Accordion>
  );
}
