import { describe, expect, it } from 'vitest';
import { WHATSAPP_WEBHOOK_PATH } from '../src/modules/channels/providers/whatsapp/whatsapp.webhook.ts';
import { createLogger, redactUrl } from '../src/platform/logger.ts';
import { createTestServer } from './server.test-support.ts';

describe('the request log', () => {
  it('keeps audio play tokens and the WhatsApp verify token out of its lines', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', false, { write: (line: string) => void lines.push(line) });
    const server = await createTestServer({ logger });
    try {
      const playToken = 'YXVkaW8tMTIz.9f8e7d6c5b4a39281706f5e4d3c2b1a0';
      const play = await server.app.inject({ url: `/api/v1/audios/play/${playToken}` });
      expect(play.statusCode).toBeGreaterThanOrEqual(400);
      const verifyToken = server.providers.simulators.whatsapp!.config.verifyToken;
      const handshake = await server.app.inject({
        url: `/api/webhooks/whatsapp${WHATSAPP_WEBHOOK_PATH}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444`,
      });
      expect(handshake.statusCode, handshake.body).toBe(200);

      const logged = lines.map((line) => JSON.parse(line) as { msg: string; req?: { url: string } });
      expect(logged.filter((l) => l.msg === 'incoming request').map((l) => l.req!.url)).toEqual(
        expect.arrayContaining([
          '/api/v1/audios/play/[redacted]',
          `/api/webhooks/whatsapp${WHATSAPP_WEBHOOK_PATH}?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=1158201444`,
        ]),
      );
      const everything = lines.join('\n');
      expect(everything).not.toContain(playToken);
      expect(everything).not.toContain(verifyToken);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('redacts only the secret part of a URL', () => {
    expect(redactUrl('/api/v1/audios/play/abc.def?download=1')).toBe('/api/v1/audios/play/[redacted]?download=1');
    expect(redactUrl('/x?a=1&HUB.VERIFY_TOKEN=s3cret&b=2')).toBe('/x?a=1&HUB.VERIFY_TOKEN=[redacted]&b=2');
    expect(redactUrl('/api/v1/audios/abc')).toBe('/api/v1/audios/abc');
  });
});
