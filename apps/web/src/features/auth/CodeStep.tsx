import { RESEND_COUNTDOWN_AFTER_RESEND_S, RESEND_COUNTDOWN_INITIAL_S } from '@ecoa/shared';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Resolver, useController, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateValidation } from '../../platform/errors';
import { notify } from '../../platform/notify';
import { useSession } from '../../platform/SessionProvider';
import { authApi } from './authApi';
import { BackButton } from './BackButton';
import { CodeInput, EMPTY_CODE } from './CodeInput';
import { loginError, requestCodeError } from './errors';
import type { CodeFormOutput, CodeFormValues } from './loginForm';
import { StepHeading } from './StepHeading';
import { useCountdown } from './useCountdown';

/** The shared code rule, from the sign-in forms' chunk (loaded by the e-mail step already). */
const codeResolver: Resolver<CodeFormValues, unknown, CodeFormOutput> = async (values, context, options) =>
  (await import('./loginForm')).codeResolver(values, context, options);

interface CodeStepProps {
  email: string;
  remainLogin: boolean;
  onBack: () => void;
}

/**
 * Step 1 (spec section 2): the six code boxes, "Entrar", "Voltar", the resend link with its
 * countdown (10 s on entry, 60 s after a resend) and the spam-folder hint.
 */
export function CodeStep({ email, remainLogin, onBack }: CodeStepProps) {
  const { t } = useTranslation();
  const { signIn } = useSession();
  // The boxes' value is checked at submit (six digits) and again only at the next submit.
  const form = useForm<CodeFormValues, unknown, CodeFormOutput>({
    resolver: codeResolver,
    defaultValues: { code: [...EMPTY_CODE] },
    reValidateMode: 'onSubmit',
  });
  const { field } = useController({ control: form.control, name: 'code' });
  const error = translateValidation(t, form.formState.errors.code?.message);
  const [focusKey, setFocusKey] = useState(0);
  const countdown = useCountdown(RESEND_COUNTDOWN_INITIAL_S);

  const login = useMutation({
    mutationFn: (value: string) => authApi.login({ email, code: value, remainLogin }),
    onSuccess: signIn,
    onError: (err) => {
      notify.error(loginError(t, err));
      form.setValue('code', [...EMPTY_CODE]);
      setFocusKey((k) => k + 1);
    },
  });

  const resend = useMutation({
    mutationFn: () => authApi.resendCode(email),
    onSuccess: () => {
      notify.success(t('auth.code.resent'));
      countdown.restart(RESEND_COUNTDOWN_AFTER_RESEND_S);
      form.reset({ code: [...EMPTY_CODE] });
      setFocusKey((k) => k + 1);
    },
    onError: (err) => notify.error(requestCodeError(t, err)),
  });

  const submit = (event: FormEvent) => {
    // Only the rules' chunk failing to arrive rejects here (the mutation reports its own errors).
    form
      .handleSubmit(({ code }) => login.mutate(code))(event)
      .catch(() => notify.error(t('errors.network')));
  };

  const waiting = countdown.seconds > 0;
  const resendDisabled = waiting || resend.isPending;

  return (
    <form onSubmit={submit} noValidate data-testid="code-step">
      <Stack gap="lg">
        <StepHeading
          title={t('auth.code.heading')}
          subtitle={t('auth.code.subtitle', { email })}
          subtitleStyle={{ overflowWrap: 'anywhere' }}
        />
        <CodeInput
          value={field.value}
          onChange={(next) => {
            field.onChange(next);
            // A full code takes the refusal away until the next try.
            if (error && next.every(Boolean)) form.clearErrors('code');
          }}
          label={t('auth.code.label')}
          boxLabel={(position, total) => t('auth.code.boxLabel', { position, total })}
          error={error}
          disabled={login.isPending}
          autoFocus
          focusKey={focusKey}
        />
        <Button type="submit" size="md" fullWidth loading={login.isPending} data-testid="code-submit">
          {t('auth.code.submit')}
        </Button>
        <Group justify="space-between" gap="sm">
          <BackButton onClick={onBack} data-testid="code-back">
            {t('auth.code.back')}
          </BackButton>
          <Anchor
            component="button"
            type="button"
            size="sm"
            fw={600}
            disabled={resendDisabled}
            aria-disabled={resendDisabled}
            c={resendDisabled ? 'dimmed' : undefined}
            style={{ cursor: resendDisabled ? 'not-allowed' : 'pointer' }}
            underline={resendDisabled ? 'never' : 'hover'}
            onClick={() => resend.mutate()}
            data-testid="code-resend"
          >
            {waiting ? t('auth.code.resendIn', { seconds: countdown.seconds }) : t('auth.code.resend')}
          </Anchor>
        </Group>
        <Group gap={8} wrap="nowrap" align="flex-start" data-testid="code-spam-hint">
          <IconInfoCircle size={18} style={{ flex: 'none', marginTop: 2 }} color="var(--mantine-color-dimmed)" />
          <Text size="sm" c="dimmed">
            {t('auth.code.spamHint')}
          </Text>
        </Group>
      </Stack>
    </form>
  );
}
