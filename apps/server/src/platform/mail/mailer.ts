import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../logger.ts';

export type MailMessage = {
  to: string;
  subject: string;
  /** The plain-text part; every mail has one. */
  text: string;
  /** A simple HTML alternative. */
  html?: string;
};

/** Sends one e-mail. Throws when it could not be handed over (SMTP refused, disk full…). */
export type Mailer = {
  send(message: MailMessage): Promise<void>;
};

export type MailerOptions = {
  /** `smtp://` or `smtps://` URL; unset → the outbox. */
  smtpUrl: string | undefined;
  from: string;
  /** `DATA_DIR`; the outbox is `${dataDir}/outbox/`. */
  dataDir: string;
  logger: Logger;
};

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

/**
 * The runtime contract (blueprint section 2): SMTP when `SMTP_URL` is set; otherwise every mail
 * is written to `DATA_DIR/outbox/` as an `.eml` file and its subject logged (development, tests,
 * e2e read the login code from there).
 *
 * Outbox file names sort by time within a process and end with the recipient:
 * `<epoch-ms>-<seq>-<recipient with @ as _at_>.eml`. Text parts are always quoted-printable, so a
 * line holding only ASCII (like a login code) appears verbatim in the file, in every language.
 */
export function createMailer(options: MailerOptions): Mailer {
  const log = options.logger.child({ component: 'mail' });
  if (options.smtpUrl) {
    const transport = lazyTransport(options.smtpUrl);
    return {
      async send(message) {
        const info = await sendWith(transport, options.from, message);
        log.info({ to: redactAddress(message.to), subject: message.subject, messageId: info.messageId }, 'mail sent');
      },
    };
  }

  const dir = outboxDir(options.dataDir);
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let seq = 0;
  return {
    async send(message) {
      const info = await sendWith(transport, options.from, message);
      await fs.promises.mkdir(dir, { recursive: true });
      const name = `${Date.now()}-${String(seq++).padStart(6, '0')}-${crypto.randomBytes(3).toString('hex')}-${safeFilePart(message.to)}.eml`;
      const file = path.join(dir, name);
      await fs.promises.writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ to: redactAddress(message.to), subject: message.subject, file }, 'mail written to the outbox');
    },
  };
}

/**
 * nodemailer (~15 MB resident) is loaded at the first mail, not at start: a worker process or
 * an idle server may never send one.
 */
function lazyTransport(settings: string | { streamTransport: true; buffer: true; newline: 'unix' }) {
  let transport: Promise<Transporter> | undefined;
  return () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(settings));
    return transport;
  };
}

/** Sends through `transport` from `from`, text parts always quoted-printable (see above). */
async function sendWith(transport: () => Promise<Transporter>, from: string, message: MailMessage) {
  return (await transport()).sendMail({ from, ...message, textEncoding: 'quoted-printable' });
}

/** "Ana.Silva@x.com.br" → "ana.silva_at_x.com.br": safe in a file name, still greppable. */
export function safeFilePart(address: string): string {
  return address
    .toLowerCase()
    .replace('@', '_at_')
    .replace(/[^a-z0-9._+-]/g, '_')
    .slice(0, 120);
}

/** Logs name the domain, not the person: "a***@x.com.br". */
function redactAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at > 0 ? `${address[0]}***${address.slice(at)}` : '***';
}
