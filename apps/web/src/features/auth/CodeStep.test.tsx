import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import cn from '../../../public/locales/cn.json';
import pt from '../../../public/locales/pt.json';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
import { SessionProvider } from '../../platform/SessionProvider';
import { CodeStep } from './CodeStep';

vi.mock('../../platform/notify', () => ({ notify: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

resetAfterEach(() => localStorage.clear());

/** Every request the step makes, answered as a wrong code. */
function recordRequests() {
  const calls: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      calls.push({ path: input, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify({ message: 'Código inválido', code: 'INVALID_CODE' }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

const renderStep = (lng: 'pt' | 'cn' = 'pt') =>
  renderWithApp(
    <SessionProvider>
      <CodeStep email="ana@acme.com.br" remainLogin={false} onBack={() => {}} />
    </SessionProvider>,
    { lng },
  );

const typeDigits = (digits: string, boxLabel: (i: number) => string) => {
  digits.split('').forEach((digit, i) => {
    fireEvent.keyDown(screen.getByLabelText(boxLabel(i)), { key: digit });
  });
};

describe('the sign-in code step', () => {
  it('an incomplete code is refused with the shared rule, translated, and nothing is sent', async () => {
    const calls = recordRequests();
    await renderStep('cn');
    typeDigits('123', (i) => cn.auth.code.boxLabel.replace('{{position}}', String(i + 1)).replace('{{total}}', '6'));
    fireEvent.click(screen.getByTestId('code-submit'));
    expect(await screen.findByText(cn.validation.code)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('six digits are sent as one code', async () => {
    const calls = recordRequests();
    await renderStep();
    typeDigits('123456', (i) => pt.auth.code.boxLabel.replace('{{position}}', String(i + 1)).replace('{{total}}', '6'));
    fireEvent.click(screen.getByTestId('code-submit'));
    await waitFor(() => expect(calls.map((c) => c.path)).toEqual(['/api/auth/login?remainLogin=false']));
    expect(calls[0]?.body).toMatchObject({ email: 'ana@acme.com.br', code: '123456' });
    expect(screen.queryByText(pt.validation.code)).toBeNull();
  });
});
