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

  /** A test checkout of `amount` whose return URLs name the payment; its id and the answer. */
  async function startCheckout(token: string, amount: number) {
    const base = server.config.publicUrl;
    const res = await checkoutCall(server, token, {
      amount,
      successUrl: `${base}/?success=true&payment={PAYMENT_ID}`,
      cancelUrl: `${base}/?cancel=true&payment={PAYMENT_ID}`,
    });
    return { res, id: new URL(res.json().checkout_url).pathname.split('/').pop()! };
  }
  /** The customer's click on the test checkout page: `pay` or `cancel`. */
  const click = (id: string, action: 'pay' | 'cancel') =>
    server.app.inject({ method: 'POST', url: `/api/checkout/test/${id}/${action}`, headers: form, payload: '' });

  it('comes back to a success URL with its id; PENDING until paid, then SUCCEEDED; another user’s is 404', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const { res, id } = await startCheckout(owner.token, 300);
    expect(res.statusCode, res.body).toBe(200);

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

    const paid = await click(id, 'pay');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${server.config.publicUrl}/?success=true&payment=${id}`);
    expect((await status(owner.token, id)).json()).toEqual({ id, status: 'SUCCEEDED', amount: 300 });
    expect((await status(stranger.token, id)).statusCode).toBe(404);
  });

  it('a canceled checkout comes back to the cancel URL with its id, CANCELED', async () => {
    const owner = await signUpAndSignIn(server);
    const { id } = await startCheckout(owner.token, 270);
    const canceled = await click(id, 'cancel');
    expect(canceled.headers.location).toBe(`${server.config.publicUrl}/?cancel=true&payment=${id}`);
    expect((await status(owner.token, id)).json()).toEqual({ id, status: 'CANCELED', amount: 270 });
  });
});
