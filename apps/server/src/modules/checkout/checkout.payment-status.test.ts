import { describe, expect, it } from 'vitest';
import { bearer, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { checkoutCall } from './checkout.test-support.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * The card return: the success URL names the payment (`{PAYMENT_ID}` filled in by the server),
 * and the customer — only the customer — reads where it stands.
 */
describe(`a card payment's status for its owner (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(
    () => createTestServer({ work: false }),
    (opened) => (server = opened),
  );

  const status = (token: string | undefined, id: string) =>
    server.app.inject({ method: 'GET', url: `/api/v1/payments/${id}`, headers: token ? bearer(token) : {} });

  it('comes back to a success URL with its id; PENDING until paid, then SUCCEEDED; another user’s is 404', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const base = server.config.publicUrl;
    const res = await checkoutCall(server, owner.token, {
      amount: 300,
      successUrl: `${base}/?success=true&payment={PAYMENT_ID}`,
      cancelUrl: `${base}/?cancel=true&payment={PAYMENT_ID}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = new URL(res.json().checkout_url).pathname.split('/').pop()!;

    const pending = await status(owner.token, id);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({ id, status: 'PENDING', amount: 300 });

    // Another user, with the id in hand, learns nothing: the same answer as an unknown payment.
    const foreign = await status(stranger.token, id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('PAYMENT_NOT_FOUND');
    const unknown = await status(owner.token, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect((await status(undefined, id)).statusCode).toBe(401);
    expect((await status(owner.token, 'not-an-id')).statusCode).toBe(400);

    const paid = await server.app.inject({
      method: 'POST',
      url: `/api/checkout/test/${id}/pay`,
      headers: form,
      payload: '',
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${base}/?success=true&payment=${id}`);
    expect((await status(owner.token, id)).json()).toEqual({ id, status: 'SUCCEEDED', amount: 300 });
    expect((await status(stranger.token, id)).statusCode).toBe(404);
  });

  it('a canceled checkout comes back to the cancel URL with its id, CANCELED', async () => {
    const owner = await signUpAndSignIn(server);
    const base = server.config.publicUrl;
    const res = await checkoutCall(server, owner.token, {
      amount: 270,
      successUrl: `${base}/?success=true&payment={PAYMENT_ID}`,
      cancelUrl: `${base}/?cancel=true&payment={PAYMENT_ID}`,
    });
    const id = new URL(res.json().checkout_url).pathname.split('/').pop()!;
    const canceled = await server.app.inject({
      method: 'POST',
      url: `/api/checkout/test/${id}/cancel`,
      headers: form,
      payload: '',
    });
    expect(canceled.headers.location).toBe(`${base}/?cancel=true&payment=${id}`);
    expect((await status(owner.token, id)).json()).toEqual({ id, status: 'CANCELED', amount: 270 });
  });
});
