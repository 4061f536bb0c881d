import {
  isValidCnpj,
  LANGUAGES,
  type Language,
  MESSAGES,
  PRICE_TABLE_FIELDS,
  type SignupPayload,
  signupFormSchema,
} from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, Group, SimpleGrid, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { errorText, translateValidation } from '../../platform/errors';
import { notify } from '../../platform/notify';
import { FormTextInput } from '../../ui/FormFields';
import { CnpjField, MobilePhoneField } from '../../ui/MaskedFields';
import { authApi, readUtm } from './authApi';
import { BackButton } from './BackButton';
import { StepHeading } from './StepHeading';

/** The terms of use shipped with the app (apps/web/public). */
export const TERMS_URL = '/termos-de-uso.pdf';

/** The shared sign-up rules (spec section 5), plus the CNPJ check digits the server verifies too. */
const formSchema = signupFormSchema.extend({
  cnpj: signupFormSchema.shape.cnpj.refine(isValidCnpj, MESSAGES.cnpjInvalid),
});
type SignupFormValues = z.input<typeof formSchema>;
type SignupFormOutput = z.output<typeof formSchema>;

export interface SignupResult {
  company: string;
  email: string;
}

interface SignupStepProps {
  email: string;
  onBack: () => void;
  onCreated: (result: SignupResult) => void;
}

/**
 * `POST /api/user` (spec section 3, "Signup payload"): the company name is also the fantasy name,
 * every unit price is 0, the utm_* fields come from the page URL. The interface language is sent
 * too, so the account's e-mails speak it.
 */
export function buildSignupPayload(values: SignupFormOutput, search: string, language?: string): SignupPayload {
  return {
    email: values.email,
    name: values.name,
    fullName: values.fullName,
    terms: values.terms,
    cnpj: values.cnpj,
    mobilePhone: values.mobilePhone,
    priceTable: Object.fromEntries(PRICE_TABLE_FIELDS.map((key) => [key, 0])) as SignupPayload['priceTable'],
    fantasyName: values.name,
    ...readUtm(search),
    ...((LANGUAGES as readonly string[]).includes(language ?? '') ? { language: language as Language } : {}),
  };
}

/** The text fields, in order: the form's field, its label (also its test id) and the browser's hints. */
const TEXT_FIELDS = [
  { name: 'fullName', label: 'fullName', autoComplete: 'name', autoFocus: true },
  { name: 'name', label: 'company', autoComplete: 'organization' },
  { name: 'email', label: 'email', type: 'email', autoComplete: 'email', inputMode: 'email' },
] as const;

/** Step 2 (spec section 2): company sign-up. */
export function SignupStep({ email, onBack, onCreated }: SignupStepProps) {
  const { t, i18n } = useTranslation();
  const form = useForm<SignupFormValues, unknown, SignupFormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: { fullName: '', name: '', email, cnpj: '', mobilePhone: '', terms: false },
  });
  const { errors } = form.formState;

  const signup = useMutation({
    mutationFn: (values: SignupFormOutput) =>
      authApi.signup(buildSignupPayload(values, window.location.search, i18n.language)),
    onSuccess: (_data, values) => onCreated({ company: values.name, email: values.email }),
    onError: (err) => notify.error(errorText(err, t, 'errors.signupFailed')),
  });

  const submit = form.handleSubmit((values) => signup.mutate(values));

  return (
    <form onSubmit={submit} noValidate data-testid="signup-step">
      <Stack gap="md">
        <StepHeading title={t('auth.signup.heading')} subtitle={t('auth.signup.subtitle')} />
        {TEXT_FIELDS.map(({ label, ...field }) => (
          <FormTextInput
            key={field.name}
            form={form}
            label={t(`auth.signup.${label}`)}
            data-testid={`signup-${label}`}
            {...field}
          />
        ))}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
          <CnpjField control={form.control} name="cnpj" label={t('auth.signup.cnpj')} data-testid="signup-cnpj" />
          <MobilePhoneField
            control={form.control}
            name="mobilePhone"
            label={t('auth.signup.mobilePhone')}
            data-testid="signup-mobilePhone"
          />
        </SimpleGrid>
        <Checkbox
          label={
            <Trans
              i18nKey="auth.signup.terms"
              components={{
                terms: (
                  // Underlined: inside a sentence, colour alone does not tell a link apart (WCAG 1.4.1).
                  <Anchor
                    inherit
                    underline="always"
                    href={TERMS_URL}
                    target="_blank"
                    rel="noopener noreferrer"
                    data-testid="signup-terms-link"
                  />
                ),
              }}
            />
          }
          error={translateValidation(t, errors.terms?.message)}
          data-testid="signup-terms"
          {...form.register('terms')}
        />
        <Button type="submit" size="md" fullWidth loading={signup.isPending} data-testid="signup-submit">
          {t('auth.signup.submit')}
        </Button>
        <Group justify="center">
          <BackButton onClick={onBack} data-testid="signup-back">
            {t('auth.signup.back')}
          </BackButton>
        </Group>
      </Stack>
    </form>
  );
}
