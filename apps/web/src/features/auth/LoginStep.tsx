import { requestCodeSchema } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowRight, IconMail } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { track } from '../../platform/analytics';
import { authApi } from './authApi';
import { requestCodeError, translateValidation } from './errors';
import { notify } from './notify';

const loginFormSchema = requestCodeSchema.extend({ remainLogin: z.boolean() });
type LoginFormValues = z.infer<typeof loginFormSchema>;

interface LoginStepProps {
  email: string;
  remainLogin: boolean;
  onCodeSent: (values: { email: string; remainLogin: boolean }) => void;
  onCreateAccount: () => void;
}

/** Step 0 (spec section 2): e-mail, "Manter sessao ativa nesta conta", "Continuar", create account. */
export function LoginStep({ email, remainLogin, onCodeSent, onCreateAccount }: LoginStepProps) {
  const { t } = useTranslation();
  const form = useForm<LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email, remainLogin },
  });
  const requestCode = useMutation({
    mutationFn: (values: LoginFormValues) => authApi.requestCode(values.email),
    onSuccess: (_data, values) => onCodeSent(values),
    onError: (err) => notify.error(requestCodeError(t, err)),
  });

  const submit = form.handleSubmit((values) => requestCode.mutate(values));
  const emailError = translateValidation(t, form.formState.errors.email?.message);

  return (
    <form onSubmit={submit} noValidate data-testid="login-step">
      <Stack gap="lg">
        <div>
          <Title order={2}>{t('auth.login.heading')}</Title>
          <Text c="dimmed" mt={6}>
            {t('auth.login.subtitle')}
          </Text>
        </div>
        <TextInput
          label={t('auth.login.email')}
          placeholder={t('auth.login.emailPlaceholder')}
          type="email"
          autoComplete="email"
          inputMode="email"
          size="md"
          leftSection={<IconMail size={18} stroke={1.6} />}
          error={emailError}
          data-autofocus
          autoFocus
          data-testid="login-email"
          {...form.register('email')}
        />
        <Checkbox label={t('auth.login.remember')} data-testid="login-remember" {...form.register('remainLogin')} />
        <Button
          type="submit"
          size="md"
          fullWidth
          loading={requestCode.isPending}
          rightSection={<IconArrowRight size={18} />}
          data-testid="login-submit"
        >
          {t('auth.login.submit')}
        </Button>
        <Text ta="center" size="sm">
          {t('auth.login.noAccount')}{' '}
          <Anchor
            component="button"
            type="button"
            fw={600}
            size="sm"
            data-testid="create-account"
            onClick={() => {
              track('cria-conta');
              onCreateAccount();
            }}
          >
            {t('auth.login.createAccount')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
