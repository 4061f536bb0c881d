/** Business constants from the spec, section 9. One place, used by web and server. */

export const PRODUCT_NAME = 'Ecoa';

/** Minimum purchase, in whole reais. */
export const MIN_PURCHASE_REAIS = 270;
/** Plus/minus buttons in the buy-credits modal step by this many units. */
export const PURCHASE_QUANTITY_STEP = 100;
/** WhatsApp credits need amount + money balance of at least this many reais. */
export const WHATSAPP_MIN_REAIS = 3000;

/** Welcome bonus granted at sign-up, per credit type. */
export const WELCOME_BONUS_CREDITS = 15;

export const CNPJ_LENGTH = 14;
export const MOBILE_PHONE_LENGTH = 11;
export const LOGIN_CODE_LENGTH = 6;

/** Resend-code countdown, in seconds. */
export const RESEND_COUNTDOWN_INITIAL_S = 10;
export const RESEND_COUNTDOWN_AFTER_RESEND_S = 60;

export const PIX_SPINNER_DELAY_MS = 500;
export const SUCCESS_TOAST_MS = 5000;
export const MODAL_CLOSE_DELAY_MS = 300;

/** The avatar shows at most this many characters of the name, then an ellipsis. */
export const DISPLAY_NAME_MAX = 10;

export const SIDEBAR_WIDTH_EXPANDED = '18rem';
export const SIDEBAR_WIDTH_COLLAPSED = '5rem';
export const BREAKPOINT_DRAWER_PX = 768;
export const BREAKPOINT_SIDEBAR_ITEMS_PX = 1024;
export const BREAKPOINT_LOGIN_SMALL_PX = 600;

/**
 * Google Tag Manager: a container id as GTM writes it (`GTM-` and upper-case letters and digits),
 * the only host its script comes from, and nothing else (the CSP allows exactly that host).
 */
export const GTM_CONTAINER_ID_PATTERN = /^GTM-[A-Z0-9]{4,12}$/;
export const GTM_ORIGIN = 'https://www.googletagmanager.com';

export const LANGUAGES = ['pt', 'en', 'cn'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'pt';
export const FALLBACK_LANGUAGE: Language = 'en';

/** Local-storage keys (spec section 3, "Local storage"). */
export const STORAGE_KEYS = {
  language: 'language',
  closedModal: 'closedModal',
  colorScheme: 'color-mode',
  token: '@legacy:token',
  /** Ours, not the spec's: the onboarding popover, once dismissed, stays closed on this browser. */
  onboardingDismissed: 'onboardingDismissed',
} as const;

export const CURRENCY = 'BRL';
export const CURRENCY_LOCALE = 'pt-BR';

/**
 * Written in a checkout's return URL, replaced by the server with the payment's id (as Stripe
 * does with `{CHECKOUT_SESSION_ID}`): the page the customer comes back to knows which payment
 * to confirm (`GET /api/v1/payments/:id`).
 */
export const PAYMENT_ID_PLACEHOLDER = '{PAYMENT_ID}';
