import { formatBRL } from '@ecoa/shared';
import type { PaymentRow } from '../../../ledger/index.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The built-in test checkout: plain HTML and two forms (the CSP allows no inline script). */
export function testCheckoutPage(payment: PaymentRow): string {
  const amount = escapeHtml(formatBRL(payment.amountCentavos));
  const pending = payment.status === 'PENDING';
  const action = (what: string, label: string, style: string) =>
    `<form method="post" action="/api/checkout/test/${payment.id}/${what}"><button type="submit" style="${style}">${label}</button></form>`;
  const button =
    'font:inherit;font-weight:600;padding:.8rem 1.6rem;border-radius:8px;border:1px solid #1c7ed6;cursor:pointer;';
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Pagamento de teste — Ecoa</title></head>
<body style="font-family:system-ui,sans-serif;background:#f1f3f5;margin:0;padding:2rem;color:#212529">
<main style="max-width:28rem;margin:2rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 2px 12px rgba(0,0,0,.08)">
<p style="background:#fff3bf;border:1px solid #fab005;border-radius:8px;padding:.75rem;margin:0 0 1.5rem;font-weight:600">
PAGAMENTO DE TESTE — nenhum cartão é cobrado. Este servidor não tem Stripe configurado (STRIPE_SECRET_KEY).</p>
<h1 style="font-size:1.25rem;margin:0 0 .5rem">Ecoa — saldo pré-pago</h1>
<p style="font-size:2rem;font-weight:700;margin:.5rem 0 1.5rem" data-testid="amount">${amount}</p>
${
  pending
    ? `<div style="display:flex;gap:1rem">${action('pay', 'Pagar', `${button}background:#1c7ed6;color:#fff`)}${action(
        'cancel',
        'Cancelar',
        `${button}background:#fff;color:#1c7ed6`,
      )}</div>`
    : `<p>Este pagamento já foi processado (${escapeHtml(payment.status)}).</p><p><a href="/">Voltar para o painel</a></p>`
}
</main></body></html>`;
}
