import { z } from 'zod';
import { signupFormSchema } from './auth.ts';

/**
 * The account settings' profile (`PATCH /api/v1/me/profile`): the fields a user may change,
 * with exactly the sign-up form's rules and messages (full name, company name, an 11-digit
 * mobile phone). E-mail and CNPJ identify the account and are read-only.
 */
export const profileSchema = signupFormSchema.pick({ fullName: true, name: true, mobilePhone: true });
export type ProfileInput = z.input<typeof profileSchema>;

/** A PATCH: each field is optional, and a field that is sent follows the rules above. */
export const profileUpdateSchema = profileSchema.partial();
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

/**
 * How an account is identified and reached, as the account's owner and the administrators see
 * it: the e-mail, the CNPJ and the mobile phone.
 */
export const accountContactFields = {
  email: z.string(),
  /** Digits only; the web shows it masked 99.999.999/9999-99. */
  cnpj: z.string(),
  /** Digits only (DDD + number). */
  mobilePhone: z.string(),
};

/** `GET /api/v1/me/profile`, and the answer of every profile or picture change. */
export const accountProfileSchema = z.object({
  fullName: z.string(),
  name: z.string(),
  ...accountContactFields,
  userProfileImageLink: z.string().nullable(),
});
export type AccountProfile = z.infer<typeof accountProfileSchema>;

export const DEVICE_KINDS = ['desktop', 'mobile', 'tablet', 'unknown'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

/** The device a session's User-Agent names ("Chrome on Linux"); null when it cannot tell. */
export const deviceSchema = z.object({
  browser: z.string().nullable(),
  os: z.string().nullable(),
  kind: z.enum(DEVICE_KINDS),
});
export type Device = z.infer<typeof deviceSchema>;

/** One item of `GET /api/v1/me/sessions`: a live session; the current one comes first. */
export const sessionInfoSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  device: deviceSchema,
  remainLogin: z.boolean(),
  /** ISO 8601 times. */
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** A profile picture: PNG, JPEG or WebP (checked by content), at most 2 MB; stored as a 256×256 WebP. */
export const PROFILE_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const PROFILE_IMAGE_ACCEPT = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const PROFILE_IMAGE_SIZE = 256;
