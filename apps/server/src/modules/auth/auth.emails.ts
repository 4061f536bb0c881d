import type { Language } from '@ecoa/shared';
import type { MailMessage } from '../../platform/mail/mailer.ts';

type CodeMailTexts = {
  subject: string;
  greeting: (name: string) => string;
  intro: string;
  validity: (minutes: number) => string;
  ignore: string;
  signature: string;
};

const TEXTS: Record<Language, CodeMailTexts> = {
  pt: {
    subject: 'Seu código de acesso ao Ecoa',
    greeting: (name) => `Olá, ${name}!`,
    intro: 'Use este código para entrar no Ecoa:',
    validity: (m) => `O código vale por ${m} minutos e só pode ser usado uma vez.`,
    ignore: 'Se você não pediu este código, ignore este e-mail: ninguém entra na sua conta sem ele.',
    signature: 'Equipe Ecoa',
  },
  en: {
    subject: 'Your Ecoa sign-in code',
    greeting: (name) => `Hello, ${name}!`,
    intro: 'Use this code to sign in to Ecoa:',
    validity: (m) => `The code is valid for ${m} minutes and can be used only once.`,
    ignore: 'If you did not ask for this code, ignore this e-mail: nobody can sign in to your account without it.',
    signature: 'The Ecoa team',
  },
  cn: {
    subject: '您的 Ecoa 登录验证码',
    greeting: (name) => `${name}，您好！`,
    intro: '请使用以下验证码登录 Ecoa：',
    validity: (m) => `验证码 ${m} 分钟内有效，且只能使用一次。`,
    ignore: '如果您没有请求此验证码，请忽略本邮件：没有它，任何人都无法登录您的账户。',
    signature: 'Ecoa 团队',
  },
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The sign-in code e-mail, in the user's language. The code is not in the subject (it would
 * show on lock screens and in the server log); it stands alone on its own line in both parts,
 * so `/^\d{6}$/m` finds it in the `.eml` (text parts are quoted-printable, see the mailer).
 */
export function loginCodeEmail(input: {
  to: string;
  name: string;
  code: string;
  language: Language;
  validMinutes: number;
}): MailMessage {
  const t = TEXTS[input.language] ?? TEXTS.pt;
  const text = [
    t.greeting(input.name),
    '',
    t.intro,
    '',
    input.code,
    '',
    t.validity(input.validMinutes),
    t.ignore,
    '',
    t.signature,
    '',
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${input.language === 'cn' ? 'zh-CN' : input.language === 'en' ? 'en' : 'pt-BR'}">`,
    '<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">',
    '<div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
    `<p style="margin:0 0 16px;font-size:16px">${escapeHtml(t.greeting(input.name))}</p>`,
    `<p style="margin:0 0 16px;font-size:16px">${escapeHtml(t.intro)}</p>`,
    '<p style="margin:0 0 16px;font-size:32px;font-weight:bold;letter-spacing:8px;text-align:center">',
    input.code,
    '</p>',
    `<p style="margin:0 0 8px;font-size:14px">${escapeHtml(t.validity(input.validMinutes))}</p>`,
    `<p style="margin:0 0 16px;font-size:14px;color:#52606d">${escapeHtml(t.ignore)}</p>`,
    `<p style="margin:0;font-size:14px">${escapeHtml(t.signature)}</p>`,
    '</div></body></html>',
  ].join('\n');
  return { to: input.to, subject: t.subject, text, html };
}
