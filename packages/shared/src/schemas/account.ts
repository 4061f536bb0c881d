import type { z } from 'zod';
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

/** A profile picture: PNG, JPEG or WebP (checked by content), at most 2 MB; stored as a 256×256 WebP. */
export const PROFILE_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const PROFILE_IMAGE_ACCEPT = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const PROFILE_IMAGE_SIZE = 256;
