import { type CampaignContent, type Channel, trackedLinkSample } from '@ecoa/shared';
import { Button, Group, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SmsCounter, type VoiceContent, VoiceFields } from '../../channels';
import { TrackedLinkPicker } from './TrackedLinkPicker';
import { VariableMenu } from './VariableMenu';

type Props = {
  channel: Channel;
  content: CampaignContent;
  variables: string[];
  onChange: (content: CampaignContent) => void;
};

const voiceOf = (p: { audioId?: string; tts?: string } | undefined): VoiceContent => ({
  mode: p?.audioId ? 'audio' : 'tts',
  audioId: p?.audioId ?? null,
  tts: p?.tts ?? '',
});
const promptOf = (v: VoiceContent) => (v.mode === 'audio' ? (v.audioId ? { audioId: v.audioId } : {}) : { tts: v.tts });

/** What the campaign says, per channel, with the lists' variables. */
export function ContentStep({ channel, content, variables, onChange }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<CampaignContent>) => onChange({ ...content, ...patch });
  switch (channel) {
    case 'sms_short':
    case 'sms_flash':
      return (
        <Stack gap="xs">
          <Group justify="space-between">
            <Text fw={500}>{t('campaignWizard.content.text')}</Text>
            <Group gap="xs">
              <TrackedLinkPicker content={content} onChange={onChange} />
              <VariableMenu variables={variables} onInsert={(v) => set({ text: `${content.text ?? ''}${v}` })} />
            </Group>
          </Group>
          <Textarea
            autosize
            minRows={4}
            maxLength={1600}
            value={content.text ?? ''}
            onChange={(e) => set({ text: e.currentTarget.value })}
            placeholder={t('campaignWizard.content.textPlaceholder')}
            data-testid="campaign-text"
          />
          <SmsCounter
            text={content.text ?? ''}
            onChange={(text) => set({ text })}
            linkSample={trackedLinkSample(window.location.origin)}
          />
          <Text size="xs" c="dimmed">
            {t('campaignWizard.content.variablesHint')}
          </Text>
        </Stack>
      );
    case 'voice_torpedo':
      return <VoiceFields value={voiceOf(content)} onChange={(v) => onChange({ ...promptOf(v) })} />;
    case 'ura':
      return (
        <Stack>
          <VoiceFields value={voiceOf(content.menu)} onChange={(v) => set({ menu: promptOf(v) })} />
          <TextInput
            label={t('channels.testSend.options')}
            description={t('channels.testSend.optionsHint')}
            value={(content.options ?? ['1', '2']).join('')}
            onChange={(e) => set({ options: [...new Set(e.currentTarget.value.replace(/[^0-9*#]/g, '').split(''))] })}
          />
          <TextInput
            label={t('channels.testSend.integrationUrl')}
            description={t('channels.testSend.integrationUrlHint')}
            value={content.integrationUrl ?? ''}
            onChange={(e) => set({ integrationUrl: e.currentTarget.value || undefined })}
            placeholder="https://"
          />
        </Stack>
      );
    case 'whatsapp': {
      const template = content.template ?? { name: '', language: 'pt_BR', params: [] };
      const setTemplate = (patch: Partial<typeof template>) => set({ template: { ...template, ...patch } });
      return (
        <Stack>
          <Group grow>
            <TextInput
              label={t('campaignWizard.content.templateName')}
              value={template.name}
              onChange={(e) => setTemplate({ name: e.currentTarget.value.trim() })}
              placeholder="boas_vindas"
              data-testid="template-name"
            />
            <TextInput
              label={t('campaignWizard.content.templateLanguage')}
              value={template.language}
              onChange={(e) => setTemplate({ language: e.currentTarget.value.trim() })}
            />
          </Group>
          {template.params.map((param, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a template's parameters are positional ({{1}}, {{2}}…)
            <Group key={i} align="flex-end" gap="xs">
              <TextInput
                style={{ flex: 1 }}
                label={t('campaignWizard.content.param', { n: i + 1 })}
                value={param}
                onChange={(e) =>
                  setTemplate({ params: template.params.map((p, j) => (j === i ? e.currentTarget.value : p)) })
                }
                placeholder={t('campaignWizard.content.paramPlaceholder')}
                data-testid={`template-param-${i + 1}`}
              />
              <VariableMenu
                variables={variables}
                onInsert={(v) => setTemplate({ params: template.params.map((p, j) => (j === i ? `${p}${v}` : p)) })}
              />
              <Button
                variant="subtle"
                color="red"
                size="xs"
                onClick={() => setTemplate({ params: template.params.filter((_, j) => j !== i) })}
              >
                {t('campaignWizard.content.removeParam')}
              </Button>
            </Group>
          ))}
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => setTemplate({ params: [...template.params, ''] })}
              data-testid="template-add-param"
            >
              {t('campaignWizard.content.addParam')}
            </Button>
          </Group>
        </Stack>
      );
    }
    case 'rcs': {
      const mode = content.card ? 'card' : 'text';
      // The card's optional parts: an emptied field leaves the card without it.
      const setCardOption = (patch: { description?: string; imageUrl?: string }) =>
        set({ card: { title: content.card?.title ?? '', ...content.card, ...patch } });
      return (
        <Stack>
          <SegmentedControl
            value={mode}
            onChange={(m) => onChange(m === 'card' ? { card: { title: '' } } : { text: '' })}
            data={[
              { value: 'text', label: t('campaignWizard.content.rcsText') },
              { value: 'card', label: t('campaignWizard.content.rcsCard') },
            ]}
          />
          {mode === 'text' ? (
            <Stack gap="xs">
              <Group justify="flex-end">
                <TrackedLinkPicker content={content} onChange={onChange} />
              </Group>
              <Textarea
                autosize
                minRows={3}
                label={t('campaignWizard.content.text')}
                value={content.text ?? ''}
                onChange={(e) => set({ text: e.currentTarget.value })}
              />
            </Stack>
          ) : (
            <>
              <TextInput
                label={t('campaignWizard.content.cardTitle')}
                value={content.card?.title ?? ''}
                onChange={(e) => set({ card: { ...content.card, title: e.currentTarget.value } })}
              />
              <Textarea
                label={t('campaignWizard.content.cardDescription')}
                value={content.card?.description ?? ''}
                onChange={(e) => setCardOption({ description: e.currentTarget.value || undefined })}
              />
              <TextInput
                label={t('campaignWizard.content.cardImage')}
                placeholder="https://"
                value={content.card?.imageUrl ?? ''}
                onChange={(e) => setCardOption({ imageUrl: e.currentTarget.value || undefined })}
              />
            </>
          )}
          <SuggestionsInput value={content.suggestions} onChange={(suggestions) => set({ suggestions })} />
        </Stack>
      );
    }
  }
}

/** RCS suggestion chips as comma-separated texts (at most 11, 25 characters each). */
function SuggestionsInput({
  value,
  onChange,
}: {
  value: CampaignContent['suggestions'];
  onChange: (v: CampaignContent['suggestions']) => void;
}) {
  const { t } = useTranslation();
  const [raw, setRaw] = useState((value ?? []).map((s) => s.text).join(', '));
  return (
    <TextInput
      label={t('campaignWizard.content.suggestions')}
      description={t('campaignWizard.content.suggestionsHint')}
      value={raw}
      onChange={(e) => {
        setRaw(e.currentTarget.value);
        const chips = e.currentTarget.value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .slice(0, 11);
        onChange(chips.length ? chips.map((text) => ({ kind: 'reply' as const, text: text.slice(0, 25) })) : undefined);
      }}
    />
  );
}
