/**
 * The pages the public hop may show instead of a plain redirect: a friendly "link not found",
 * "nobody available now", "too many clicks", and the minimal tracking page that fires the
 * link's Meta Pixel / Google tag and sends the visitor on. No framework, a few hundred bytes,
 * translated from the visitor's Accept-Language (pt by default, en, zh → cn).
 */
import type { LinkPixels } from '@ecoa/shared';

export type PageLanguage = 'pt' | 'en' | 'cn';

export function languageOf(acceptLanguage: string | undefined): PageLanguage {
  for (const part of (acceptLanguage ?? '').toLowerCase().split(',')) {
    const tag = part.trim().split(';')[0] ?? '';
    if (tag.startsWith('pt')) return 'pt';
    if (tag.startsWith('en')) return 'en';
    if (tag.startsWith('zh')) return 'cn';
  }
  return 'pt';
}

const TEXTS = {
  notFound: {
    pt: ['Link não encontrado', 'Este link não existe ou não está mais ativo. Confira o endereço com quem o enviou.'],
    en: ['Link not found', 'This link does not exist or is no longer active. Check the address with whoever sent it.'],
    cn: ['未找到链接', '此链接不存在或已停用。请向发送者核对地址。'],
  },
  unavailable: {
    pt: [
      'Ninguém disponível agora',
      'No momento não há atendentes disponíveis para este link. Tente novamente mais tarde.',
    ],
    en: ['Nobody available right now', 'No one is available to answer this link right now. Please try again later.'],
    cn: ['暂时无人可以接待', '此链接目前没有可用的客服。请稍后再试。'],
  },
  tooMany: {
    pt: ['Muitos acessos', 'Recebemos muitos acessos deste aparelho. Aguarde um minuto e tente de novo.'],
    en: ['Too many visits', 'We received too many visits from this device. Wait a minute and try again.'],
    cn: ['访问过多', '此设备的访问次数过多。请稍等一分钟再试。'],
  },
  redirecting: {
    pt: ['Redirecionando…', 'Se nada acontecer, toque aqui para continuar.'],
    en: ['Redirecting…', 'If nothing happens, tap here to continue.'],
    cn: ['正在跳转…', '如果没有反应，请点击这里继续。'],
  },
} as const;

const HTML_LANG: Record<PageLanguage, string> = { pt: 'pt-BR', en: 'en', cn: 'zh-CN' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function frame(language: PageLanguage, title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="${HTML_LANG[language]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>${head}<style>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f5f6f8;color:#1f2430}main{max-width:28rem;margin:1.5rem;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08);text-align:center}h1{font-size:1.25rem;margin:0 0 .75rem}p{margin:0;line-height:1.5;color:#4a5163}a{color:#1c7ed6}@media(prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}main{background:#25262b}p{color:#c1c2c5}}</style></head><body><main>${body}</main></body></html>`;
}

export function messagePage(kind: 'notFound' | 'unavailable' | 'tooMany', language: PageLanguage): string {
  const [title, text] = TEXTS[kind][language];
  return frame(language, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}

/**
 * Fires the link's pixels, then goes on to `location` (a script after a short delay so the tags
 * can send, and a meta refresh for browsers without scripts). Its CSP allows exactly the tags'
 * hosts and this page's own nonce.
 */
export function pixelPage(
  location: string,
  pixels: LinkPixels,
  language: PageLanguage,
  nonce: string,
): { html: string; csp: string } {
  const [title, text] = TEXTS.redirecting[language];
  const target = JSON.stringify(location).replace(/</g, '\\u003c');
  const scripts: string[] = [];
  if (pixels.meta) {
    scripts.push(
      `!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init',${JSON.stringify(pixels.meta)});fbq('track','PageView');`,
    );
  }
  if (pixels.google) {
    scripts.push(
      `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${JSON.stringify(pixels.google)});var g=document.createElement('script');g.async=true;g.src='https://www.googletagmanager.com/gtag/js?id='+encodeURIComponent(${JSON.stringify(pixels.google)});document.head.appendChild(g);`,
    );
  }
  scripts.push(`setTimeout(function(){location.replace(${target})},600);`);
  const head = `<meta http-equiv="refresh" content="2;url=${escapeHtml(location)}"><script nonce="${nonce}">${scripts.join('')}</script>`;
  const html = frame(
    language,
    title,
    `<h1>${escapeHtml(title)}</h1><p><a href="${escapeHtml(location)}" rel="noreferrer">${escapeHtml(text)}</a></p>`,
    head,
  );
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' https://connect.facebook.net https://www.googletagmanager.com`,
    "style-src 'unsafe-inline'",
    'img-src https://www.facebook.com https://www.google-analytics.com https://www.googletagmanager.com data:',
    'connect-src https://www.facebook.com https://connect.facebook.net https://www.google-analytics.com https://*.google-analytics.com https://www.googletagmanager.com',
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { html, csp };
}
