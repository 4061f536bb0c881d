import { z } from 'zod';
import { CNPJ_LENGTH, LANGUAGES, LOGIN_CODE_LENGTH, MOBILE_PHONE_LENGTH } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { cnpjChars, isValidCnpj, onlyDigits } from '../validators/cnpj.ts';

// The spec's validation rules (section 5) with its exact messages (messages.ts). The web form and
// the server validate with these same schemas; the server adds the CNPJ check digits.

/** A missing (or non-text) field answers the same message as an empty one. */
const text = (message: string) => z.string({ error: message });

const loginEmail = text(MESSAGES.loginEmail).trim().min(2, MESSAGES.loginEmail).pipe(z.email(MESSAGES.loginEmail));

export const requestCodeSchema = z.object({
  email: loginEmail,
});
export type RequestCodeInput = z.infer<typeof requestCodeSchema>;

/** `POST /api/auth/request-code` and `POST /api/auth/resend-code`: the code is on its way. */
export const codeSentSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  expiresInSeconds: z.number().int(),
});
export type CodeSent = z.infer<typeof codeSentSchema>;

export const loginSchema = z.object({
  email: loginEmail,
  code: text(MESSAGES.code).trim().length(LOGIN_CODE_LENGTH, MESSAGES.code),
  remainLogin: z.boolean().optional().default(false),
});
export type LoginInput = z.infer<typeof loginSchema>;

const PRICE_TABLE_KEYS = ['smsShort', 'smsFlash', 'whatsapp', 'ura', 'enriched', 'rcs', 'uraIntegration'] as const;
export type PriceTableKey = (typeof PRICE_TABLE_KEYS)[number];

/** Unit prices in reais (up to 4 decimal places). At sign-up the web sends them all as 0. */
export const priceTableSchema = z.object(
  Object.fromEntries(PRICE_TABLE_KEYS.map((k) => [k, z.number().min(0).default(0)])) as Record<
    PriceTableKey,
    z.ZodDefault<z.ZodNumber>
  >,
);
export const PRICE_TABLE_FIELDS = PRICE_TABLE_KEYS;

const utm = z.string().trim().max(200).optional();

/** The sign-up form's own fields, as the web form validates them. */
export const signupFormSchema = z.object({
  fullName: text(MESSAGES.fullName).trim().min(1, MESSAGES.fullName),
  name: text(MESSAGES.company).trim().min(1, MESSAGES.company),
  email: text(MESSAGES.signupEmailRequired)
    .trim()
    .min(1, MESSAGES.signupEmailRequired)
    .pipe(z.email(MESSAGES.signupEmailInvalid)),
  // Digits, or since July 2026 letters too (the alphanumeric CNPJ), upper-cased.
  cnpj: text(MESSAGES.cnpjRequired)
    .transform(cnpjChars)
    .pipe(z.string().min(1, MESSAGES.cnpjRequired).length(CNPJ_LENGTH, MESSAGES.cnpjLength)),
  mobilePhone: text(MESSAGES.mobilePhone)
    .transform(onlyDigits)
    .pipe(z.string().length(MOBILE_PHONE_LENGTH, MESSAGES.mobilePhone)),
  terms: z.boolean({ error: MESSAGES.terms }).refine((v) => v === true, MESSAGES.terms),
});
export type SignupFormInput = z.input<typeof signupFormSchema>;

/** `POST /api/user`: the spec's sign-up payload. */
export const signupPayloadSchema = signupFormSchema.extend({
  fantasyName: z.string().trim().max(200).optional(),
  cnpj: signupFormSchema.shape.cnpj.refine(isValidCnpj, MESSAGES.cnpjInvalid),
  priceTable: priceTableSchema.optional(),
  utm_source: utm,
  utm_medium: utm,
  utm_campaign: utm,
  utm_term: utm,
  utm_content: utm,
  /** The interface language at sign-up; the account's e-mails use it (default pt). */
  language: z.enum(LANGUAGES).optional(),
});
export type SignupPayload = z.input<typeof signupPayloadSchema>;
