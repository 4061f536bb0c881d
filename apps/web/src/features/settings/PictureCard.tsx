import { type AccountProfile, PROFILE_IMAGE_ACCEPT, PROFILE_IMAGE_MAX_BYTES } from '@ecoa/shared';
import { Avatar, Button, Card, FileButton, Group, Stack, Text, Title } from '@mantine/core';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { notify } from '../../platform/notify';
import { useSession } from '../../platform/SessionProvider';
import { openConfirmDialog } from '../../ui/ConfirmDialog';
import { settingsKeys } from './queryKeys';
import { settingsApi } from './settingsApi';

const ACCEPT = PROFILE_IMAGE_ACCEPT.join(',');

/** A local preview of the chosen file (a `blob:` URL, allowed by the CSP), revoked when done. */
function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/**
 * The profile picture: choose a PNG, JPEG or WebP (≤ 2 MB), see it, save it; or remove it.
 * The server checks the content again and stores a 256×256 square; the shell's avatar follows.
 */
export function PictureCard({ profile }: { profile: AccountProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { refreshUser } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const preview = usePreview(file);

  const done = async (updated: AccountProfile, message: string) => {
    queryClient.setQueryData(settingsKeys.profile, updated);
    setFile(null);
    notify.success(message);
    await refreshUser();
  };

  const upload = useMutation({
    mutationFn: (chosen: File) => settingsApi.uploadPicture(chosen),
    onSuccess: (updated) => done(updated, t('settings.picture.saved')),
    onError: (err) => notify.error(errorText(err, t, 'settings.picture.failed')),
  });
  const remove = useMutation({
    mutationFn: () => settingsApi.removePicture(),
    onSuccess: (updated) => done(updated, t('settings.picture.removed')),
    onError: (err) => notify.error(errorText(err, t, 'settings.picture.failed')),
  });

  const choose = (chosen: File | null) => {
    if (!chosen) return;
    // Quick checks for a friendly answer; the server decides by the file's content.
    if (!(PROFILE_IMAGE_ACCEPT as readonly string[]).includes(chosen.type)) {
      notify.error(t('errors.codes.IMAGE_TYPE_NOT_ALLOWED'));
      return;
    }
    if (chosen.size > PROFILE_IMAGE_MAX_BYTES) {
      notify.error(t('errors.codes.IMAGE_TOO_LARGE'));
      return;
    }
    setFile(chosen);
  };

  const confirmRemove = () =>
    openConfirmDialog({
      centered: true,
      title: t('settings.picture.removeTitle'),
      body: t('settings.picture.removeQuestion'),
      confirmLabel: t('settings.picture.remove'),
      cancelLabel: t('settings.cancel'),
      confirmTestId: 'picture-remove-confirm',
      onConfirm: () => remove.mutate(),
    });

  const shown = preview ?? profile.userProfileImageLink;
  const busy = upload.isPending || remove.isPending;

  return (
    <Card withBorder radius="lg" padding="lg" h="100%" data-testid="settings-picture">
      <Stack gap="md" h="100%">
        <Group gap={8}>
          <IconPhoto size={20} />
          <Title order={4}>{t('settings.picture.title')}</Title>
        </Group>
        <Stack align="center" gap="sm" style={{ flex: 1 }}>
          <Avatar
            src={shown}
            alt={profile.name}
            size={128}
            radius={999}
            color="teal"
            data-testid="picture-preview"
            style={preview ? { outline: '3px dashed var(--mantine-color-teal-5)', outlineOffset: 3 } : undefined}
          >
            {profile.name.trim().charAt(0).toUpperCase()}
          </Avatar>
          <Text size="xs" c="dimmed" ta="center" maw={260}>
            {file ? t('settings.picture.previewHint') : t('settings.picture.hint')}
          </Text>
        </Stack>
        {file ? (
          <Stack gap="xs">
            <Button
              fullWidth
              leftSection={<IconUpload size={16} />}
              loading={upload.isPending}
              onClick={() => upload.mutate(file)}
              data-testid="picture-save"
            >
              {t('settings.picture.save')}
            </Button>
            <Button
              fullWidth
              variant="default"
              onClick={() => setFile(null)}
              disabled={busy}
              data-testid="picture-cancel"
            >
              {t('settings.cancel')}
            </Button>
          </Stack>
        ) : (
          <Stack gap="xs">
            <FileButton onChange={choose} accept={ACCEPT}>
              {(props) => (
                <Button
                  {...props}
                  fullWidth
                  variant="light"
                  leftSection={<IconUpload size={16} />}
                  disabled={busy}
                  data-testid="picture-choose"
                >
                  {profile.userProfileImageLink ? t('settings.picture.change') : t('settings.picture.choose')}
                </Button>
              )}
            </FileButton>
            {profile.userProfileImageLink && (
              <Button
                fullWidth
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                loading={remove.isPending}
                onClick={confirmRemove}
                data-testid="picture-remove"
              >
                {t('settings.picture.remove')}
              </Button>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
