import type { Audio } from '@ecoa/shared';
import { Anchor, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PICKER_PAGE, useSearchPicker } from '../../ui/useSearchPicker';
import { audiosApi } from '../audios';
import { audiosKeys } from '../audios/queryKeys';

export type VoiceContent = { mode: 'audio' | 'tts'; audioId: string | null; tts: string };

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

const labelOf = (a: Audio) => `${a.name} (${minutes(a.durationSeconds)})`;

/** What a call plays: one of the user's audios (`/audios`) or a text read aloud in Portuguese. */
export function VoiceFields({ value, onChange }: { value: VoiceContent; onChange: (v: VoiceContent) => void }) {
  const { t } = useTranslation();
  // The newest audios, or the server's search over all of them as the name is typed.
  const audios = useSearchPicker<Audio>({
    keys: audiosKeys.picker,
    search: (q) => audiosApi.list(1, PICKER_PAGE, q),
    byId: audiosApi.get,
    chosen: value.audioId ? [value.audioId] : [],
    labelOf: labelOf,
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
      ) : audios.items && audios.items.length === 0 && !audios.searching && !audios.typed ? (
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
          data={(audios.withChosen ?? []).map((a) => ({ value: a.id, label: labelOf(a) }))}
          searchValue={audios.typed}
          onSearchChange={audios.setTyped}
          nothingFoundMessage={t('channels.voice.noMatch')}
          value={value.audioId}
          onChange={(audioId) => onChange({ ...value, audioId })}
          searchable
          data-testid="voice-audio"
        />
      )}
    </Stack>
  );
}
