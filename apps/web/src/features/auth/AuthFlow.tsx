import { PRODUCT_NAME } from '@ecoa/shared';
import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from './AuthLayout';
import { CodeStep } from './CodeStep';
import { LoginStep } from './LoginStep';
import { SignupSuccessModal } from './SignupSuccessModal';

/** Sign-up (its masks and checks) is a chunk of its own: signing in never downloads it. */
const SignupStep = lazy(async () => ({ default: (await import('./SignupStep')).SignupStep }));

/** The spec's steps: 0 login, 1 code validation, 2 company sign-up. */
export type AuthStep = 0 | 1 | 2;

/**
 * What a signed-out visitor sees on any route (spec section 2 and section 4 "Auth flow"):
 * 0 → 1 once the code is sent (e-mail and remain-login carried along), 1 → 0 and 2 → 0 via
 * "Voltar", 0 → 2 via create account. The URL is left alone, so after signing in the visitor
 * is on the page they asked for.
 */
export function AuthFlow({ onCodeSent }: { onCodeSent?: () => Promise<unknown> }) {
  const { t, i18n } = useTranslation();
  const [step, setStep] = useState<AuthStep>(0);
  const [email, setEmail] = useState('');
  const [remainLogin, setRemainLogin] = useState(false);
  const [created, setCreated] = useState<{ company: string; email: string } | null>(null);

  // Page title: the product name followed by "Cadastro" on sign-up, "Login" otherwise; the
  // product name alone once the flow leaves. One effect with its own cleanup, so a flow hidden
  // and shown again by a Suspense boundary (a lazy chunk or a language loading) sets it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the title follows the language too
  useEffect(() => {
    document.title = `${PRODUCT_NAME} | ${t(step === 2 ? 'auth.pageTitle.signup' : 'auth.pageTitle.login')}`;
    return () => {
      document.title = PRODUCT_NAME;
    };
  }, [step, t, i18n.language]);

  return (
    <AuthLayout>
      {step === 0 && (
        <LoginStep
          email={email}
          remainLogin={remainLogin}
          onCodeSent={(values) => {
            setEmail(values.email);
            setRemainLogin(values.remainLogin);
            setStep(1);
            // A missed head start only: the signed-in code loads (and reports) again when needed.
            onCodeSent?.().catch(() => {});
          }}
          onCreateAccount={() => setStep(2)}
        />
      )}
      {step === 1 && <CodeStep email={email} remainLogin={remainLogin} onBack={() => setStep(0)} />}
      {step === 2 && (
        <Suspense
          fallback={
            <Center mih={480} data-testid="signup-loader">
              <Loader aria-hidden="true" />
            </Center>
          }
        >
          <SignupStep
            email={email}
            onBack={() => setStep(0)}
            onCreated={(result) => {
              setEmail(result.email);
              setCreated(result);
            }}
          />
        </Suspense>
      )}
      <SignupSuccessModal
        result={created}
        onClose={() => {
          setCreated(null);
          setStep(0);
        }}
      />
    </AuthLayout>
  );
}
