import {
  type CampaignProblemCode,
  ERRORS,
  type ErrorArgs,
  type ErrorCode,
  isErrorCode,
  validationKeyOf,
} from '@ecoa/shared';

/** The code an error answers with: its catalogue code, or a campaign problem's own. */
export type WireCode = ErrorCode | CampaignProblemCode;

/** An error as it crosses a worker thread's port (structured clone keeps no class). */
export type AppErrorWire = { key: string; details?: unknown; vars?: unknown };

/**
 * The one error model of the server, built only from the catalogue (`ERRORS` in @ecoa/shared):
 * `new AppError('USER_NOT_FOUND')`, `new AppError('PERIOD_TOO_LONG', { maxDays })`. The code
 * gives the HTTP status and the Portuguese message; `details` are answered as they are (the web
 * translates `errors.codes.<CODE>` with them); `vars` feed only the message.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: WireCode;
  readonly status: number;
  readonly details: unknown;
  /** The catalogue entry's code (differs from `code` only for a campaign problem). */
  readonly key: C;
  readonly vars: unknown;

  constructor(key: C, ...args: ErrorArgs<C>) {
    const [details, vars] = args as [unknown, unknown];
    const entry = ERRORS[key];
    const { message } = entry as { message: string | ((d: unknown, v: unknown) => string) };
    super(typeof message === 'function' ? message(details, vars) : message);
    this.name = 'AppError';
    this.key = key;
    this.code = key === 'CAMPAIGN_PROBLEM' ? (vars as { problem: CampaignProblemCode }).problem : key;
    this.status = entry.status;
    this.details = details;
    this.vars = vars;
  }

  /** What a worker thread posts for this error. */
  toWire(): AppErrorWire {
    return { key: this.key, details: this.details, vars: this.vars };
  }

  /** The error a worker thread posted, rebuilt from the catalogue. */
  static fromWire(wire: AppErrorWire): AppError {
    if (!isErrorCode(wire.key)) throw new Error(`not a catalogued error: ${wire.key}`);
    return new (AppError as new (key: ErrorCode, details: unknown, vars: unknown) => AppError)(
      wire.key,
      wire.details,
      wire.vars,
    );
  }
}

/**
 * A schema's refusal (zod keeps only its message): a shared validation message is named by its
 * key in `details.messageKey`, any other (a library's default) is answered in its own words.
 */
export function validationFailed(message: string | undefined): AppError<'VALIDATION_FAILED'> {
  const messageKey = validationKeyOf(message);
  return messageKey
    ? new AppError('VALIDATION_FAILED', { messageKey })
    : new AppError('VALIDATION_FAILED', undefined, { text: message });
}
