import { describe, expect, it } from 'vitest';
import { readUtm } from './authApi';
import { buildSignupPayload } from './SignupStep';

const values = {
  fullName: 'Maria Silva',
  name: 'Padaria Central',
  email: 'maria@padaria.com.br',
  cnpj: '11222333000181',
  mobilePhone: '11987654321',
  terms: true,
};

describe('the sign-up payload (spec section 3)', () => {
  it('sends the company as name and fantasyName, digits only, and every price as 0', () => {
    expect(buildSignupPayload(values, '', 'pt')).toEqual({
      ...values,
      fantasyName: 'Padaria Central',
      priceTable: { smsShort: 0, smsFlash: 0, whatsapp: 0, ura: 0, enriched: 0, rcs: 0, uraIntegration: 0 },
      language: 'pt',
    });
  });

  it('adds the utm_* fields found in the page URL, and only those', () => {
    const payload = buildSignupPayload(values, '?utm_source=google&utm_medium=cpc&utm_campaign=lancamento&x=1', 'en');
    expect(payload).toMatchObject({ utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'lancamento' });
    expect(payload).not.toHaveProperty('x');
    expect(payload).not.toHaveProperty('utm_term');
    expect(payload.language).toBe('en');
  });

  it('leaves out empty utm fields and an unknown language', () => {
    expect(readUtm('?utm_source=&utm_term=%20ads%20')).toEqual({ utm_term: 'ads' });
    expect(buildSignupPayload(values, '', 'fr')).not.toHaveProperty('language');
  });
});
