import type { Audio } from '@ecoa/shared';
import { Group, Loader, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { audiosApi } from './audiosApi';
import { audioErrorText } from './errors';

/**
 * The browser's own player over the owner's file. The session token lives in localStorage, so an
 * `<audio src>` cannot carry it: the file is fetched with the token (≤ 10 MB) and played from an
 * object URL, released when the player goes away. Seeking is then local.
 */
export function AudioPlayer({ audio, autoPlay = true }: { audio: Audio; autoPlay?: boolean }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  // The failure itself, translated when shown: a language switch must not refetch the file.
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    audiosApi
      .file(audio.id, controller.signal)
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch((err: unknown) => {
        if ((err as Error)?.name !== 'AbortError') setError(err);
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [audio.id]);

  if (error) {
    return (
      <Text size="xs" c="red" data-testid="audio-player-error">
        {audioErrorText(t, error)}
      </Text>
    );
  }
  if (!url) {
    return (
      <Group gap={6} h={40} data-testid="audio-player-loading">
        <Loader size="xs" />
        <Text size="xs" c="dimmed">
          {t('audios.player.loading')}
        </Text>
      </Group>
    );
  }
  return (
    // biome-ignore lint/a11y/useMediaCaption: users' own voice recordings have no caption track
    <audio
      controls
      autoPlay={autoPlay}
      src={url}
      preload="metadata"
      aria-label={t('audios.player.label', { name: audio.name })}
      style={{ height: 40, width: '100%', minWidth: 240, maxWidth: 320, display: 'block' }}
      data-testid="audio-player"
    />
  );
}
