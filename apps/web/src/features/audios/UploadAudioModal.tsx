import { AUDIO_NAME_MAX, type Audio, MAX_AUDIO_BYTES } from '@ecoa/shared';
import { Alert, Button, Group, Modal, Paper, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconFileMusic } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbort } from '../../platform/form-upload';
import { AudioDropArea } from './AudioDropArea';
import { audiosApi } from './audiosApi';
import { audioErrorText } from './errors';
import { formatBytes, nameFromFile } from './format';
import { useLocale } from './useLocale';

/** Pick or drop an audio, name it (prefilled from the file name), upload it with progress. */
export function UploadAudioModal({
  opened,
  onClose,
  onUploaded,
}: {
  opened: boolean;
  onClose: () => void;
  onUploaded: (audio: Audio) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const uploading = progress !== null;
  const upload = useRef<AbortController | null>(null);

  const reset = () => {
    setFile(null);
    setName('');
    setError(null);
    setProgress(null);
  };
  const close = () => {
    if (uploading) return;
    reset();
    onClose();
  };

  const pick = (picked: File) => {
    if (picked.size > MAX_AUDIO_BYTES) {
      setError(t('errors.codes.AUDIO_TOO_LARGE'));
      return;
    }
    setError(null);
    setFile(picked);
    setName(nameFromFile(picked.name));
  };

  const submit = async () => {
    if (!file) return;
    if (!name.trim()) {
      setError(t('errors.codes.AUDIO_NAME_REQUIRED'));
      return;
    }
    setError(null);
    setProgress(0);
    upload.current = new AbortController();
    try {
      const audio = await audiosApi.upload({ file, name: name.trim() }, setProgress, upload.current.signal);
      reset();
      onUploaded(audio);
    } catch (err) {
      // Canceled: back to the chosen file and its name, nothing to report.
      if (!isAbort(err)) setError(audioErrorText(t, err));
      setProgress(null);
    } finally {
      upload.current = null;
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('audios.upload.title')} size="lg" data-testid="upload-modal">
      <Stack gap="md">
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="upload-error">
            {error}
          </Alert>
        )}
        {!file && <AudioDropArea onFile={pick} />}
        {file && (
          <>
            <Paper withBorder p="sm" radius="md">
              <Group gap="sm" wrap="nowrap">
                <IconFileMusic size={28} stroke={1.5} />
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate data-testid="upload-file-name">
                    {file.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatBytes(file.size, locale)}
                  </Text>
                </Stack>
              </Group>
            </Paper>
            <TextInput
              label={t('audios.upload.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={AUDIO_NAME_MAX}
              disabled={uploading}
              data-autofocus
              data-testid="upload-name"
            />
            {uploading && (
              <Stack gap={4}>
                <Text size="sm">{t('audios.upload.uploading', { percent: Math.round(progress * 100) })}</Text>
                <Progress value={progress * 100} animated striped data-testid="upload-progress" />
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => upload.current?.abort()}
                  style={{ alignSelf: 'flex-start' }}
                  data-testid="upload-cancel"
                >
                  {t('audios.upload.cancel')}
                </Button>
              </Stack>
            )}
            <Group justify="space-between">
              <Button variant="default" onClick={reset} disabled={uploading}>
                {t('audios.upload.otherFile')}
              </Button>
              <Button onClick={submit} loading={uploading} data-testid="upload-submit">
                {t('audios.upload.submit')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
