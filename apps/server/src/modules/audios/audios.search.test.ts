import { describe, expect, it } from 'vitest';
import { wavFile } from '../../../test/audio-builder.test-support.ts';
import { bearer } from '../../../test/factories.test-support.ts';
import { openServerWithUser } from '../../../test/hooks.test-support.ts';
import { uploadAs } from '../../../test/http.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

/** Issue 21: the pickers find any audio or list by name, not only the newest 100. */
describe(`audios and lists searched by name (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;

  openServerWithUser((opened) => ({ server, token } = opened));

  const post = async (
    url: string,
    fields: { name: string; value: string }[],
    file: { filename: string; content: Buffer },
  ) => {
    const res = await uploadAs(server, token, url, [...fields, { name: 'file', ...file }]);
    expect(res.statusCode, res.body).toBe(201);
  };
  const names = async (url: string) => {
    const res = await server.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: { name: string }[]; total: number }).items.map((i) => i.name).sort();
  };

  it('GET /api/v1/audios?q= keeps the names containing it (any case; % and _ are plain characters)', async () => {
    for (const name of ['Boas-vindas', 'Cobrança março', 'cobrança abril', '100% desconto', '100 desconto'])
      await post('/api/v1/audios', [{ name: 'name', value: name }], {
        filename: 'a.wav',
        content: wavFile({ sampleRate: 8000, seconds: 1 }),
      });
    expect(await names('/api/v1/audios?q=COBRAN')).toEqual(['Cobrança março', 'cobrança abril']);
    expect(await names(`/api/v1/audios?q=${encodeURIComponent('100%')}`)).toEqual(['100% desconto']);
    expect(await names('/api/v1/audios?q=')).toHaveLength(5);
  });

  it('GET /api/v1/lists?q= keeps the names containing it', async () => {
    for (const name of ['Clientes SP', 'Clientes RJ', 'Fornecedores'])
      await post('/api/v1/lists', [{ name: 'name', value: name }], {
        filename: 'c.csv',
        content: Buffer.from('telefone\n11987654321\n'),
      });
    expect(await names('/api/v1/lists?q=clientes')).toEqual(['Clientes RJ', 'Clientes SP']);
    expect(await names('/api/v1/lists?q=_')).toEqual([]);
    expect(await names('/api/v1/lists')).toHaveLength(3);
  });
});
