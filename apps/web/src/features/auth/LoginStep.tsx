import { Anchor, Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowRight, IconMail } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { track } from '../../platform/analytics';
import { translateValidation } from '../../platform/errors';
import { notify } from '../../platform/notify';
import { authApi } from './authApi';
import { requestCodeError } from './errors';
import type { LoginFormValues } from './loginForm';
import { StepHeading } from './StepHeading';

/** The form's rules (zod and the shared schema) arrive on first use: see loginForm.ts. */
const loadRules = () => import('./loginForm');
const lazyResolver: Resolver<LoginFormValues> = async (values, context, options) =>
  (await loadRules()).loginResolver(values, context, options);
/** Fetches the rules ahead of the submit, once the visitor starts typing; a failure shows at submit. */
const warmUpRules = () => void loadRules().catch(() => {});

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
    resolver: lazyResolver,
    defaultValues: { email, remainLogin },
  });
  const requestCode = useMutation({
    mutationFn: (values: LoginFormValues) => authApi.requestCode(values.email),
    onSuccess: (_data, values) => onCodeSent(values),
    onError: (err) => notify.error(requestCodeError(t, err)),
  });

  const submit = (event: FormEvent) => {
    // Only the rules' chunk failing to arrive rejects here (the mutation reports its own errors).
    form
      .handleSubmit((values) => requestCode.mutate(values))(event)
      .catch(() => notify.error(t('errors.network')));
  };
  const emailError = translateValidation(t, form.formState.errors.email?.message);

  return (
    <form onSubmit={submit} noValidate data-testid="login-step">
      <Stack gap="lg">
        <StepHeading title={t('auth.login.heading')} subtitle={t('auth.login.subtitle')} />
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
          {...form.register('email', { onChange: warmUpRules })}
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
