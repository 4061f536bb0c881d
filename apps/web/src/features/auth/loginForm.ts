import { loginSchema, requestCodeSchema } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';

/**
 * The sign-in forms' rules: the shared schemas the server checks too, plus the "remain signed
 * in" box. A chunk of its own (LoginStep loads it when the visitor starts typing or submits), so
 * the sign-in screen's first download does not carry zod.
 */
export const loginFormSchema = requestCodeSchema.extend({ remainLogin: z.boolean() });
export type LoginFormValues = z.infer<typeof loginFormSchema>;

export const loginResolver = zodResolver(loginFormSchema);

/** The code step: its boxes joined, then the server's own rule for the code (`MESSAGES.code`). */
export const codeFormSchema = z.object({
  code: z
    .array(z.string())
    .transform((boxes) => boxes.join(''))
    .pipe(loginSchema.shape.code),
});
export type CodeFormValues = z.input<typeof codeFormSchema>;
export type CodeFormOutput = z.output<typeof codeFormSchema>;

export const codeResolver = zodResolver(codeFormSchema);
