import { requestCodeSchema } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';

/**
 * The sign-in form's rules: the shared schema the server checks too, plus the "remain signed in"
 * box. A chunk of its own (LoginStep loads it when the visitor starts typing or submits), so the
 * sign-in screen's first download does not carry zod.
 */
export const loginFormSchema = requestCodeSchema.extend({ remainLogin: z.boolean() });
export type LoginFormValues = z.infer<typeof loginFormSchema>;

export const loginResolver = zodResolver(loginFormSchema);
