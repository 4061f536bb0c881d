import { type AccountProfile, type ProfileInput, profileSchema } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Grid, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconLock, IconUserCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { errorText } from '../../platform/errors';
import { applyMask, CNPJ_MASK } from '../../platform/masks';
import { notify } from '../../platform/notify';
import { useSession } from '../../platform/SessionProvider';
import { FormTextInput } from '../../ui/FormFields';
import { MobilePhoneField } from '../../ui/MaskedFields';
import { settingsKeys } from './queryKeys';
import { settingsApi } from './settingsApi';

type FormValues = z.input<typeof profileSchema>;
type FormOutput = z.output<typeof profileSchema>;

const valuesOf = (p: AccountProfile): FormValues => ({
  fullName: p.fullName,
  name: p.name,
  mobilePhone: p.mobilePhone,
});

/**
 * Full name, company and mobile phone, with the sign-up form's rules, mask and messages (the
 * shared schema); e-mail and CNPJ are shown, not editable. Saving refreshes the shell's user.
 */
export function ProfileCard({ profile }: { profile: AccountProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { refreshUser } = useSession();
  const form = useForm<FormValues, unknown, FormOutput>({
    resolver: zodResolver(profileSchema),
    defaultValues: valuesOf(profile),
  });
  const { isDirty } = form.formState;

  // A fresh profile from the server (after saving, or from another tab) becomes the new baseline.
  useEffect(() => {
    form.reset(valuesOf(profile));
  }, [profile, form]);

  const save = useMutation({
    mutationFn: (values: ProfileInput) => settingsApi.updateProfile(values),
    onSuccess: async (updated) => {
      queryClient.setQueryData(settingsKeys.profile, updated);
      notify.success(t('settings.profile.saved'));
      await refreshUser();
    },
    onError: (err) => notify.error(errorText(err, t, 'settings.profile.saveFailed')),
  });

  const submit = form.handleSubmit((values) => save.mutate(values));

  return (
    <Card withBorder radius="lg" padding="lg" h="100%" data-testid="settings-profile">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Group gap={8}>
            <IconUserCircle size={20} />
            <Title order={4}>{t('settings.profile.title')}</Title>
          </Group>
          <Grid gutter="md">
            <Grid.Col span={{ base: 12, sm: 5 }}>
              <FormTextInput
                form={form}
                name="fullName"
                label={t('settings.profile.fullName')}
                autoComplete="name"
                data-testid="profile-fullName"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 7 }}>
              <FormTextInput
                form={form}
                name="name"
                label={t('settings.profile.company')}
                autoComplete="organization"
                data-testid="profile-company"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 5 }}>
              <MobilePhoneField
                control={form.control}
                name="mobilePhone"
                label={t('settings.profile.mobilePhone')}
                data-testid="profile-mobilePhone"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 7 }}>
              <TextInput
                label={t('settings.profile.email')}
                value={profile.email}
                title={profile.email}
                readOnly
                variant="filled"
                rightSection={<IconLock size={14} />}
                data-testid="profile-email"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 5 }}>
              <TextInput
                label={t('settings.profile.cnpj')}
                value={applyMask(CNPJ_MASK, profile.cnpj)}
                readOnly
                variant="filled"
                rightSection={<IconLock size={14} />}
                data-testid="profile-cnpj"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 7 }} style={{ display: 'flex', alignItems: 'flex-end' }}>
              <Group gap={6} wrap="nowrap" align="flex-start">
                <IconLock size={14} style={{ flexShrink: 0, marginTop: 2, opacity: 0.6 }} />
                <Text size="xs" c="dimmed">
                  {t('settings.profile.readOnlyHint')}
                </Text>
              </Group>
            </Grid.Col>
          </Grid>
          <Group justify="flex-end" gap="sm">
            {isDirty && (
              <Button
                variant="default"
                disabled={save.isPending}
                onClick={() => form.reset(valuesOf(profile))}
                data-testid="profile-reset"
              >
                {t('settings.profile.discard')}
              </Button>
            )}
            <Button type="submit" disabled={!isDirty} loading={save.isPending} data-testid="profile-save">
              {t('settings.profile.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
