import type { Audio, Page } from '@ecoa/shared';
import { Anchor, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../platform/api';

export type VoiceContent = { mode: 'audio' | 'tts'; audioId: string | null; tts: string };

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

/** What a call plays: one of the user's audios (`/audios`) or a text read aloud in Portuguese. */
export function VoiceFields({ value, onChange }: { value: VoiceContent; onChange: (v: VoiceContent) => void }) {
  const { t } = useTranslation();
  const audios = useQuery({
    queryKey: ['audios', 'all'],
    queryFn: () => api.get<Page<Audio>>('/api/v1/audios', { query: { page: 1, pageSize: 100 } }),
    enabled: value.mode === 'audio',
  });
  return (
    <Stack gap="xs">
      <SegmentedControl
        value={value.mode}
        onChange={(mode) => onChange({ ...value, mode: mode as VoiceContent['mode'] })}
        data={[
          { value: 'tts', label: t('channels.voice.tts') },
          { value: 'audio', label: t('channels.voice.audio') },
        ]}
        data-testid="voice-mode"
      />
      {value.mode === 'tts' ? (
        <Textarea
          label={t('channels.voice.ttsLabel')}
          autosize
          minRows={2}
          maxRows={6}
          value={value.tts}
          onChange={(e) => onChange({ ...value, tts: e.currentTarget.value })}
          data-testid="voice-tts"
        />
      ) : audios.data && audios.data.items.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="voice-no-audios">
          {t('channels.voice.noAudios')}{' '}
          <Anchor component={Link} to="/audios">
            {t('channels.voice.goToAudios')}
          </Anchor>
        </Text>
      ) : (
        <Select
          label={t('channels.voice.audioLabel')}
          placeholder={t('channels.voice.audioPlaceholder')}
          data={(audios.data?.items ?? []).map((a) => ({
            value: a.id,
            label: `${a.name} (${minutes(a.durationSeconds)})`,
          }))}
          value={value.audioId}
          onChange={(audioId) => onChange({ ...value, audioId })}
          searchable
          data-testid="voice-audio"
        />
      )}
    </Stack>
  );
}
