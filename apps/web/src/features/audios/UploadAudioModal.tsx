import '@mantine/dropzone/styles.css';
import { AUDIO_NAME_MAX, type Audio, MAX_AUDIO_BYTES } from '@ecoa/shared';
import { Alert, Button, Group, Modal, Paper, Progress, Stack, Text, TextInput } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconAlertCircle, IconFileMusic, IconUpload, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { audiosApi } from './audiosApi';
import { audioErrorText } from './errors';
import { formatBytes, nameFromFile } from './format';
import { useLocale } from './useLocale';

/**
 * A hint for the file chooser only: the server decides by content (a WAV named .mp3 is a WAV),
 * so the audio types and the usual extensions are offered, and anything else is its to refuse.
 */
const ACCEPT = {
  'audio/mpeg': ['.mp3'],
  'audio/wav': ['.wav'],
  'audio/x-wav': ['.wav'],
  'audio/wave': ['.wav'],
  'audio/ogg': ['.ogg', '.oga', '.opus'],
  'audio/opus': ['.opus'],
};

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

  const pick = (files: File[]) => {
    const picked = files[0];
    if (!picked) return;
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
    try {
      const audio = await audiosApi.upload({ file, name: name.trim() }, setProgress);
      reset();
      onUploaded(audio);
    } catch (err) {
      setError(audioErrorText(t, err));
      setProgress(null);
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
        {!file && (
          <Dropzone
            onDrop={pick}
            onReject={(rejections) =>
              setError(
                t(
                  rejections[0]?.errors[0]?.code === 'file-too-large'
                    ? 'errors.codes.AUDIO_TOO_LARGE'
                    : 'errors.codes.AUDIO_TYPE_NOT_ALLOWED',
                ),
              )
            }
            maxSize={MAX_AUDIO_BYTES}
            maxFiles={1}
            multiple={false}
            accept={ACCEPT}
            data-testid="upload-dropzone"
          >
            <Group justify="center" gap="lg" mih={150} style={{ pointerEvents: 'none' }}>
              <Dropzone.Accept>
                <IconUpload size={48} stroke={1.5} />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconX size={48} stroke={1.5} />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconFileMusic size={48} stroke={1.5} />
              </Dropzone.Idle>
              <Stack gap={4}>
                <Text size="lg" fw={600}>
                  {t('audios.upload.drop')}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('audios.upload.dropHint')}
                </Text>
              </Stack>
            </Group>
          </Dropzone>
        )}
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
