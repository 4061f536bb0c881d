import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/server.test-support.ts';
import { createMailer, outboxDir } from './mailer.ts';

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** A minimal SMTP server that accepts every message and keeps its DATA. */
function smtpSink() {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 sink\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return {
    received,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('mailer', () => {
  const sink = smtpSink();
  afterAll(() => sink.close());

  it('without SMTP_URL writes each mail as an .eml in DATA_DIR/outbox and logs its subject', async () => {
    const dataDir = tempDir();
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({ smtpUrl: undefined, from: 'Ecoa <no@ecoa.test>', dataDir, logger });
    await mailer.send({ to: 'Ana@Example.com', subject: 'Olá', text: 'primeira\n123456\n', html: '<p>primeira</p>' });
    await mailer.send({ to: 'ana@example.com', subject: 'Second', text: 'segunda' });
    const files = fs.readdirSync(outboxDir(dataDir)).sort();
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatch(/^\d{13}-\d{6}-[0-9a-f]{6}-ana_at_example\.com\.eml$/);
    const first = fs.readFileSync(path.join(outboxDir(dataDir), files[0]!), 'utf8');
    expect(first).toMatch(/^From: Ecoa <no@ecoa\.test>$/m);
    expect(first).toMatch(/^To: Ana@example\.com$/im);
    expect(first).toContain('multipart/alternative');
    expect(first).toMatch(/^123456$/m);
    expect(fs.readFileSync(path.join(outboxDir(dataDir), files[1]!), 'utf8')).toMatch(/^Subject: Second$/m);
    expect(lines.map((l) => l.subject)).toEqual(['Olá', 'Second']);
    expect(JSON.stringify(lines)).not.toContain('123456');
  });

  it('with SMTP_URL hands the mail to the SMTP server', async () => {
    const port = await sink.listen();
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Ecoa <no@ecoa.test>',
      dataDir: tempDir(),
      logger,
    });
    await mailer.send({ to: 'bob@example.com', subject: 'Código', text: 'seu código\n654321\n', html: '<b>x</b>' });
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0]).toMatch(/^To: bob@example\.com$/m);
    expect(sink.received[0]).toMatch(/^654321$/m);
    expect(lines.at(-1)).toMatchObject({ msg: 'mail sent', subject: 'Código', to: 'b***@example.com' });
  });

  it('throws when the SMTP server cannot be reached', async () => {
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'x@y.z', dataDir: tempDir(), logger });
    await expect(mailer.send({ to: 'a@b.c', subject: 's', text: 't' })).rejects.toThrow();
  });
});
