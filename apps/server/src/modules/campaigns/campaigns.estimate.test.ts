import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { campaignsUser, importList, mobile, startCampaignsServer } from './campaigns.test-support.ts';

describe('the estimate shows the review an example and what removing accents saves', () => {
  let server: RunningServer;
  openBeforeAll(startCampaignsServer, (opened) => (server = opened));

  it('gives the first recipient’s rendered text and the parts without accents when that saves some', async () => {
    const { user, api: c } = await campaignsUser(server, 10);
    const phones = [mobile(), mobile()].sort();
    const list = await importList(server, user.token, [
      { phone: phones[1]!, name: 'Bia' },
      { phone: phones[0]!, name: 'Ana' },
    ]);
    // 87 characters with "á", "ç", "ã": UCS-2, 2 parts each; without accents GSM-7, 1 part.
    const text = 'Olá {nome}, sua promoção de dezembro chegou: descontos de até 50% nas lojas participantes!';
    const id = await c.create({ name: 'Acentos', channel: 'sms_short', listIds: [list], content: { text } });
    const accented = await c.estimate(id);
    expect(accented).toMatchObject({ recipients: 2, parts: 4, partsPerMessage: { min: 2, max: 2 } });
    // The first recipient in the audience's order (by phone), variables filled.
    expect(accented.example).toEqual({
      to: phones[0],
      text: 'Olá Ana, sua promoção de dezembro chegou: descontos de até 50% nas lojas participantes!',
    });
    expect(accented.withoutAccents).toEqual({ parts: 2, min: 1, max: 1 });

    // Nothing to save: no offer.
    await c.call('PATCH', `/api/v1/campaigns/${id}`, { content: { text: 'Oi {nome}' } });
    const plain = await c.estimate(id);
    expect(plain.example).toEqual({ to: phones[0], text: 'Oi Ana' });
    expect(plain.withoutAccents).toBeNull();
  });
});
