import { AUDIO_NAME_MAX, type Audio, MAX_AUDIO_BYTES } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconFileMusic } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useUploadMutation } from '../../platform/upload-mutation';
import { ErrorAlert } from '../../ui/ErrorAlert';
import type { ModalProps } from '../../ui/modalProps';
import { UploadProgress } from '../../ui/UploadProgress';
import { AudioDropArea } from './AudioDropArea';
import { audiosApi } from './audiosApi';
import { audioErrorText } from './errors';
import { formatBytes, nameFromFile } from './format';
import { audiosKeys } from './queryKeys';
import { useLocale } from './useLocale';

/** The upload's name, as the server takes it (its message is the server's code, translated). */
const uploadSchema = z.object({
  name: z.string().trim().min(1, 'errors.codes.AUDIO_NAME_REQUIRED').max(AUDIO_NAME_MAX),
});
type Values = z.input<typeof uploadSchema>;

/** Pick or drop an audio, name it (prefilled from the file name), upload it with progress. */
export function UploadAudioModal({ opened, onClose, onUploaded }: ModalProps & { onUploaded: (audio: Audio) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  /** A picked file refused before sending (too large). */
  const [pickError, setPickError] = useState<string | null>(null);
  // The name's message stays until the next submission, as the server's would.
  const form = useForm<Values>({
    resolver: zodResolver(uploadSchema),
    reValidateMode: 'onSubmit',
    defaultValues: { name: '' },
  });
  const upload = useUploadMutation(
    (input: { file: File; name: string }, onProgress, signal) => audiosApi.upload(input, onProgress, signal),
    {
      onSuccess: (audio) => {
        reset();
        void queryClient.invalidateQueries({ queryKey: audiosKeys.all });
        onUploaded(audio);
      },
    },
  );
  const uploading = upload.mutation.isPending;
  const nameError = form.formState.errors.name?.message;
  // Canceled: back to the chosen file and its name, nothing to report.
  const error = pickError ?? (nameError ? t(nameError) : upload.failure ? audioErrorText(t, upload.failure) : null);

  const reset = () => {
    setFile(null);
    setPickError(null);
    form.reset({ name: '' });
    upload.mutation.reset();
  };
  const close = () => {
    if (uploading) return;
    reset();
    onClose();
  };

  const pick = (picked: File) => {
    upload.mutation.reset();
    form.clearErrors();
    if (picked.size > MAX_AUDIO_BYTES) {
      setPickError(t('errors.codes.AUDIO_TOO_LARGE'));
      return;
    }
    setPickError(null);
    setFile(picked);
    form.setValue('name', nameFromFile(picked.name));
  };

  const submit = form.handleSubmit(({ name }) => {
    if (!file) return;
    setPickError(null);
    upload.mutation.mutate({ file, name: name.trim() });
  });

  return (
    <Modal opened={opened} onClose={close} title={t('audios.upload.title')} size="lg" data-testid="upload-modal">
      <Stack gap="md">
        <ErrorAlert error={error} data-testid="upload-error" />
        {!file && <AudioDropArea onFile={pick} />}
        {file && (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
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
                maxLength={AUDIO_NAME_MAX}
                disabled={uploading}
                data-autofocus
                data-testid="upload-name"
                {...form.register('name')}
              />
              {uploading && (
                <UploadProgress
                  gap={4}
                  label={t('audios.upload.uploading', { percent: Math.round(upload.progress * 100) })}
                  progress={upload.progress}
                  progressTestId="upload-progress"
                  onCancel={upload.cancel}
                  cancelLabel={t('audios.upload.cancel')}
                  cancelTestId="upload-cancel"
                />
              )}
              <Group justify="space-between">
                <Button variant="default" onClick={reset} disabled={uploading}>
                  {t('audios.upload.otherFile')}
                </Button>
                <Button type="submit" loading={uploading} data-testid="upload-submit">
                  {t('audios.upload.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Modal>
  );
}
