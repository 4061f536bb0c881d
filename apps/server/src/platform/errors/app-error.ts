/**
 * The one error model of the server. `message` is what the user reads (already in the
 * product's default language, pt, or an i18n key the web app translates); `code` is stable
 * and machine-readable; `status` is the HTTP status.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, message: string, details?: unknown) =>
  new AppError(code, 400, message, details);
export const unauthorized = (message = 'Sessão expirada. Entre novamente.') =>
  new AppError('UNAUTHORIZED', 401, message);
export const forbidden = (message = 'Acesso negado.') => new AppError('FORBIDDEN', 403, message);
export const notFound = (code = 'NOT_FOUND', message = 'Recurso não encontrado.') => new AppError(code, 404, message);
export const conflict = (code: string, message: string) => new AppError(code, 409, message);
export const tooManyRequests = (message = 'Muitas tentativas. Aguarde alguns minutos e tente novamente.') =>
  new AppError('RATE_LIMITED', 429, message);
