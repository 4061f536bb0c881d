import type { Channel, CreateCampaignRequest } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server.ts';
import { credits, userWithCredits } from '../channels/channels.test-support.ts';
import { api, importList, mobile, startCampaignsServer } from './campaigns.test-support.ts';

/** The whole lifecycle on each channel, through the real adapters and their simulators. */
describe('campaigns on every channel', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startCampaignsServer();
  });
  afterAll(async () => {
    await server?.close();
  });

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
      const user = await userWithCredits(server, 10);
      const c = api(server, user.token);
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
});
