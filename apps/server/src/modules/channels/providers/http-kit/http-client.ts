/**
 * One HTTP exchange with a carrier API through node's fetch, with a timeout and a bounded
 * answer. What matters to a sender is not only "it failed" but whether the request may have
 * reached the carrier: a refused connection or an unknown host means nothing left, a timeout or
 * a connection cut mid-answer means it may have been taken (and, without idempotency, must not
 * be re-sent blindly).
 */

/** The carrier's answer, whatever its status: the provider decides what it means. */
export type HttpAnswer = {
  status: number;
  /** The body's bytes, at most `maxAnswerBytes` (a longer answer is a TransportError). */
  body: Buffer;
};

export class TransportError extends Error {
  constructor(
    /** False when the request certainly never reached the carrier (connection refused, DNS). */
    readonly maybeSent: boolean,
    /** A stable code: `ECONNREFUSED`, `TIMEOUT`, `ANSWER_TOO_LARGE`, … */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Failures that happen before a single byte of the request can have reached the carrier. */
const BEFORE_SEND_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
]);

export type HttpRequest = {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxAnswerBytes: number;
};

export async function httpExchange(request: HttpRequest): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (err) {
    throw transportError(err);
  }
  try {
    return { status: response.status, body: await readBounded(response, request.maxAnswerBytes) };
  } catch (err) {
    if (err instanceof TransportError) throw err;
    // The status line arrived: the carrier took the request and the answer broke on the way.
    const cause = transportError(err);
    throw new TransportError(true, cause.code, cause.message);
  }
}

async function readBounded(response: Response, max: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new TransportError(true, 'ANSWER_TOO_LARGE', `the answer is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function transportError(err: unknown): TransportError {
  const error = err as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError') {
    return new TransportError(true, 'TIMEOUT', 'the carrier did not answer in time');
  }
  const code = error?.cause?.code ?? error?.code ?? 'NETWORK_ERROR';
  const message = error?.cause?.message ?? error?.message ?? String(err);
  return new TransportError(!BEFORE_SEND_CODES.has(code), code, message);
}
