/** Enumerations of the spec (section 3) and the blueprint (sections 4 and 5). */

export const CREDIT_TYPES = [
  'BALANCE',
  'SMSSHORT',
  'SMSFLASH',
  'WHATSAPP',
  'URA',
  'URAINTEGRATION',
  'RCS',
  'ENRICHED',
] as const;
export type CreditType = (typeof CREDIT_TYPES)[number];

export const ACCESS_LEVELS = ['USER', 'ADMINISTRATOR'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const PAYMENT_STATUSES = ['SUCCEEDED', 'FAILED', 'CANCELED', 'PENDING', 'REFUNDED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_METHODS = ['MANUAL', 'PIX', 'CARD'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_PROVIDERS = ['MANUAL', 'STRIPE'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const CHANNELS = ['sms_short', 'sms_flash', 'voice_torpedo', 'ura', 'whatsapp', 'rcs'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Which credit type each channel spends (blueprint section 4). */
export const CHANNEL_CREDIT_TYPE: Record<Channel, CreditType> = {
  sms_short: 'SMSSHORT',
  sms_flash: 'SMSFLASH',
  voice_torpedo: 'URA',
  ura: 'URAINTEGRATION',
  whatsapp: 'WHATSAPP',
  rcs: 'RCS',
};

export const CAMPAIGN_STATUSES = [
  'DRAFT',
  'SCHEDULED',
  'RUNNING',
  'PAUSED',
  'COMPLETED',
  'CANCELED',
  'FAILED',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A campaign the user made, or the hidden row a sending-API request becomes (ADR 020). */
export const CAMPAIGN_KINDS = ['campaign', 'api'] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

/**
 * What an API key may do (issue 23). A signed-in session may do all of it; a key only what it
 * was created with, and a route names the one scope it needs (`guard.requireScope(…)`).
 */
export const API_SCOPES = [
  'messages:send',
  'messages:read',
  'campaigns:read',
  'campaigns:write',
  'lists:write',
  'webhooks:manage',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];
