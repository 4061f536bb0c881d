import type { Language } from '@ecoa/shared';
import type { MailMessage } from '../../platform/mail/mailer.ts';

const TEXTS: Record<Language, { subject: string; body: (url: string) => string }> = {
  pt: {
    subject: 'Ecoa: webhook desativado',
    body: (url) =>
      `O endereço ${url} falhou em todas as entregas dos últimos 3 dias e foi desativado.\n\nCorrija o receptor e reative o webhook em Configurações → Webhooks; as entregas que falharam podem ser reenviadas de lá.`,
  },
  en: {
    subject: 'Ecoa: webhook disabled',
    body: (url) =>
      `The endpoint ${url} failed every delivery for the last 3 days and was disabled.\n\nFix the receiver and enable the webhook again in Settings → Webhooks; the failed deliveries can be replayed from there.`,
  },
  cn: {
    subject: 'Ecoa：Webhook 已停用',
    body: (url) =>
      `地址 ${url} 在过去 3 天内的所有投递均失败，已被停用。\n\n请修复接收端，并在 设置 → Webhooks 中重新启用；失败的投递可在那里重新发送。`,
  },
};

/** The account is told its endpoint was disabled after failing for the whole retry window. */
export function endpointDisabledEmail(to: string, language: Language, url: string): MailMessage {
  const t = TEXTS[language] ?? TEXTS.pt;
  return { to, subject: t.subject, text: t.body(url) };
}
