/**
 * Who may call the administrators' endpoints: each answers 401 without a session, 403 to a
 * regular user, and works for an administrator. A new admin route that is not listed here fails
 * the test. (The owners' side, each user's resources reachable by their owner alone:
 * access.owners.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importList } from '../src/modules/campaigns/campaigns.test-support.ts';
import type { RunningServer } from '../src/server.ts';
import { expectAdminOnly, type RouteCall, registeredRoutes, userAndAdmin } from './access.test-support.ts';
import { signUpAndSignIn } from './factories.test-support.ts';
import { createTestServer, dbKind } from './server.test-support.ts';

let server: RunningServer;
let tokens: { userToken: string; adminToken: string };

beforeAll(async () => {
  server = await createTestServer();
  tokens = await userAndAdmin(server);
});
afterAll(async () => {
  await server?.close();
});

describe(`access control (${dbKind})`, () => {
  it('every administrator endpoint: 401 anonymous, 403 regular user, allowed for an administrator', async () => {
    const targetUser = await signUpAndSignIn(server);
    const target = targetUser.user.id;
    const base = `/api/v1/admin/users/${target}`;
    // A scheduled campaign of the target's, for the administrators' pause and cancel.
    const campaignList = await importList(server, targetUser.token, [{ phone: '+5511987650031' }]);
    const { id: campaign } = await server.modules.campaigns.create(target, {
      name: 'Agendada',
      channel: 'sms_short',
      listIds: [campaignList],
      content: { text: 'Oi' },
      schedule: '2099-01-04T10:00:00-03:00',
    });
    await server.modules.campaigns.start(target, campaign);
    const { id: trackedCampaign } = await server.modules.campaigns.create(target, {
      name: 'Com link',
      channel: 'sms_short',
      listIds: [campaignList],
      content: { text: 'Oi {link}', trackedLink: { url: 'https://ecoa.example.com/oi' } },
      schedule: '2099-01-04T10:00:00-03:00',
    });
    await server.modules.campaigns.start(target, trackedCampaign);
    // An enrichment of the target's (written directly: the CNPJ base is not loaded here).
    const { rows: enriched } = await server.db.executeSql(
      "insert into enrichments (user_id, name, status) values ($1, 'Acesso', 'ready') returning id",
      [target],
    );
    const enrichmentId = (enriched[0] as { id: string }).id;
    const link = await server.modules.links.create(target, {
      name: 'Vendas',
      slug: `vendas-${target.slice(0, 8)}`,
      mode: 'round_robin',
      targets: [{ kind: 'whatsapp', phone: '11987650032' }],
    });
    const routes: (RouteCall & { pattern: string })[] = [
      { pattern: 'GET /api/v1/admin/links', method: 'GET', url: '/api/v1/admin/links' },
      {
        pattern: 'PATCH /api/v1/admin/links/:id',
        method: 'PATCH',
        url: `/api/v1/admin/links/${link.id}`,
        payload: { disabled: false },
      },
      { pattern: 'GET /api/v1/admin/links/tracked', method: 'GET', url: '/api/v1/admin/links/tracked' },
      { pattern: 'GET /api/v1/admin/enrichments', method: 'GET', url: '/api/v1/admin/enrichments' },
      {
        pattern: 'GET /api/v1/admin/enrichments/:id',
        method: 'GET',
        url: `/api/v1/admin/enrichments/${enrichmentId}`,
      },
      {
        pattern: 'GET /api/v1/admin/enrichments/:id/results',
        method: 'GET',
        url: `/api/v1/admin/enrichments/${enrichmentId}/results`,
      },
      {
        pattern: 'PATCH /api/v1/admin/links/tracked/:id',
        method: 'PATCH',
        url: `/api/v1/admin/links/tracked/${trackedCampaign}`,
        payload: { disabled: false },
      },
      { pattern: 'GET /api/v1/admin/users', method: 'GET', url: '/api/v1/admin/users' },
      { pattern: 'GET /api/v1/admin/users/:id', method: 'GET', url: base },
      { pattern: 'PATCH /api/v1/admin/users/:id', method: 'PATCH', url: base, payload: { priceTable: { ura: 0.2 } } },
      { pattern: 'GET /api/v1/admin/users/:id/balance', method: 'GET', url: `${base}/balance` },
      { pattern: 'GET /api/v1/admin/users/:id/ledger', method: 'GET', url: `${base}/ledger` },
      { pattern: 'GET /api/v1/admin/users/:id/payments', method: 'GET', url: `${base}/payments` },
      {
        pattern: 'POST /api/v1/admin/users/:id/payments',
        method: 'POST',
        url: `${base}/payments`,
        payload: { amount: 10, method: 'MANUAL', reason: 'teste de acesso' },
      },
      {
        pattern: 'POST /api/v1/admin/users/:id/adjustments',
        method: 'POST',
        url: `${base}/adjustments`,
        payload: { type: 'SMSSHORT', amount: 5, reason: 'teste de acesso' },
      },
      { pattern: 'GET /api/v1/admin/channels', method: 'GET', url: '/api/v1/admin/channels' },
      { pattern: 'GET /api/v1/admin/cnpj-base', method: 'GET', url: '/api/v1/admin/cnpj-base' },
      {
        pattern: 'POST /api/v1/admin/cnpj-base/import',
        method: 'POST',
        url: '/api/v1/admin/cnpj-base/import',
        payload: { folder: '/nonexistent/cnpj-folder' },
      },
      { pattern: 'GET /api/v1/admin/campaigns', method: 'GET', url: '/api/v1/admin/campaigns?q=Agendada' },
      {
        pattern: 'POST /api/v1/admin/campaigns/:id/pause',
        method: 'POST',
        url: `/api/v1/admin/campaigns/${campaign}/pause`,
      },
      {
        pattern: 'POST /api/v1/admin/campaigns/:id/cancel',
        method: 'POST',
        url: `/api/v1/admin/campaigns/${campaign}/cancel`,
      },
    ];
    const all = registeredRoutes(server);
    expect(all).toContain('DELETE /api/v1/lists/:id'); // the route tree is read right
    const adminRoutes = all.filter((r) => r.includes(' /api/v1/admin/'));
    expect(routes.map((r) => r.pattern).sort()).toEqual([...adminRoutes].sort());
    await expectAdminOnly(server, routes, tokens);
  });
});
