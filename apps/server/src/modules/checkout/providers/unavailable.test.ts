import { ERRORS } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors/app-error.ts';
import { noCardPayments } from './unavailable.ts';

describe('no card payments on this server', () => {
  it('refuses a checkout session as the service does: 503 CARD_PAYMENTS_NOT_CONFIGURED, which the web translates by code', async () => {
    const session = noCardPayments.createCheckoutSession({
      paymentId: '00000000-0000-4000-8000-000000000000',
      amountCentavos: 300_00,
      successUrl: 'https://app.ecoa.example/ok',
      cancelUrl: 'https://app.ecoa.example/back',
    });
    await expect(session).rejects.toBeInstanceOf(AppError);
    await expect(session).rejects.toMatchObject({
      code: 'CARD_PAYMENTS_NOT_CONFIGURED',
      status: 503,
      message: ERRORS.CARD_PAYMENTS_NOT_CONFIGURED.message,
    });
  });

  it('has no webhook (404) and knows no external payment', async () => {
    await expect(noCardPayments.parseWebhook(Buffer.from('{}'), undefined)).rejects.toMatchObject({ status: 404 });
    expect(await noCardPayments.paymentIdOfExternalPayment('pi_1')).toBeNull();
  });
});
