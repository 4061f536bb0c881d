import type { CodeSent, LoginResponse, SignupPayload } from '@ecoa/shared';
import { api } from '../../platform/api';

/** The sign-in calls of spec section 7, under /api on the main host (the session's own: `platform/SessionProvider`). */
export const authApi = {
  requestCode: (email: string) => api.post<CodeSent>('/api/auth/request-code', { email }),
  resendCode: (email: string) => api.post<CodeSent>('/api/auth/resend-code', { email }),
  login: (input: { email: string; code: string; remainLogin: boolean }) =>
    api.post<LoginResponse>(
      '/api/auth/login',
      { code: input.code, email: input.email, remainLogin: input.remainLogin },
      { query: { remainLogin: input.remainLogin } },
    ),
  signup: (payload: SignupPayload) => api.post<unknown>('/api/user', payload),
};

export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** The optional marketing fields of the sign-up payload, read from the page URL. */
export function readUtm(search: string): Partial<Record<UtmField, string>> {
  const params = new URLSearchParams(search);
  const utm: Partial<Record<UtmField, string>> = {};
  for (const field of UTM_FIELDS) {
    const value = params.get(field)?.trim();
    if (value) utm[field] = value.slice(0, 200);
  }
  return utm;
}
