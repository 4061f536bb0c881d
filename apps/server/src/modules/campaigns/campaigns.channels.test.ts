import type { Channel, CreateCampaignRequest } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { credits, userWithCredits } from '../channels/channels.test-support.ts';
import { api, campaignsUser, importList, mobile, startCampaignsServer, uploadAudio } from './campaigns.test-support.ts';

/** The whole lifecycle on each channel, through the real adapters and their simulators. */
describe('campaigns on every channel', () => {
  let server: RunningServer;
  openBeforeAll(startCampaignsServer, (opened) => (server = opened));

  const cases: { channel: Channel; type: string; content: CreateCampaignRequest['content']; final: string }[] = [
    { channel: 'sms_flash', type: 'SMSFLASH', content: { text: 'Alerta {nome}' }, final: 'delivered' },
    {
      channel: 'whatsapp',
      type: 'WHATSAPP',
      content: { template: { name: 'boas_vindas', language: 'pt_BR', params: ['{nome}'] } },
      final: 'delivered',
    },
    {
      channel: 'rcs',
      type: 'RCS',
      content: { card: { title: 'Oferta para {nome}', suggestions: [{ kind: 'reply', text: 'Quero' }] } },
      final: 'delivered',
    },
    {
      channel: 'voice_torpedo',
      type: 'URA',
      content: { tts: 'Olá {nome}, sua fatura vence amanhã.' },
      final: 'delivered',
    },
    {
      channel: 'ura',
      type: 'URAINTEGRATION',
      content: { menu: { tts: 'Tecle 1 para falar com um atendente.' }, options: ['1', '2'] },
      final: 'delivered',
    },
  ];

  for (const { channel, type, content, final } of cases) {
    it(`${channel}: sends to each recipient once, settles every one, credits exact`, async () => {
      const { user, api: c } = await campaignsUser(server, 10);
      const list = await importList(server, user.token, [
        { phone: mobile(), name: 'Ana' },
        { phone: mobile(), name: 'Bia' },
      ]);
      const id = await c.create({ name: channel, channel, listIds: [list], content });
      expect((await c.estimate(id)).problems).toEqual([]);
      await c.move(id, 'start');
      const done = await c.waitFor(id, undefined, 40_000);
      expect(done.status).toBe('COMPLETED');
      expect(done.counts[final as 'delivered']).toBe(2);
      expect(done.credits).toEqual({ reserved: 2, used: 2, released: 0 });
      expect(await credits(server, user.id, type)).toEqual({ available: 8, reserved: 0 });
      if (channel === 'ura') expect(done.answers).toEqual([{ digit: '1', count: 2 }]);
    }, 60_000);
  }

  it('voice torpedo with an uploaded audio: the carrier fetches it; the audio cannot be deleted while the campaign may call', async () => {
    const { user, api: c } = await campaignsUser(server, 10);
    const audioId = await uploadAudio(server, user.token);
    const list = await importList(server, user.token, [{ phone: mobile() }]);
    const later = await c.create({
      name: 'Depois',
      channel: 'voice_torpedo',
      listIds: [list],
      content: { audioId },
      schedule: '2099-01-04T10:00:00-03:00',
    });
    expect((await c.move(later, 'start')).status).toBe('SCHEDULED');
    const refused = await c.call('DELETE', `/api/v1/audios/${audioId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('AUDIO_IN_USE');

    const now = await c.create({ name: 'Agora', channel: 'voice_torpedo', listIds: [list], content: { audioId } });
    await c.move(now, 'start');
    expect(await c.waitFor(now, undefined, 40_000)).toMatchObject({ status: 'COMPLETED', counts: { delivered: 1 } });
    await c.move(later, 'cancel');
    expect((await c.call('DELETE', `/api/v1/audios/${audioId}`)).statusCode).toBeLessThan(300);
  }, 60_000);

  it('the first campaign started ends the onboarding (isNewUser)', async () => {
    const user = await userWithCredits(server, 10);
    const me = async () =>
      (await server.app.inject({ method: 'GET', url: '/api/me', headers: bearer(user.token) })).json();
    expect((await me()).isNewUser).toBe(true);
    const c = api(server, user.token);
    const list = await importList(server, user.token, [{ phone: mobile() }]);
    const id = await c.create({ name: 'Primeira', channel: 'sms_short', listIds: [list], content: { text: 'Oi' } });
    await c.move(id, 'start');
    expect((await me()).isNewUser).toBe(false);
  });
});
