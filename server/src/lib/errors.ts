export type FieldErrors = Record<string, string>;

/** An error whose message is safe to show to the caller. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly code?: string,
    public readonly fieldErrors?: FieldErrors,
    /** Sent as Retry-After: the refusal is temporary (and an Idempotency-Key does not keep it). */
    public readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fieldErrors?: FieldErrors, code = 'BAD_REQUEST') =>
  new AppError(400, message, code, fieldErrors);
export const unauthorized = (message = 'Not authorized, please sign in') => new AppError(401, message, 'UNAUTHORIZED');
export const forbidden = (message = 'Admin access required') => new AppError(403, message, 'FORBIDDEN');
export const notFound = (message = 'Not Found') => new AppError(404, message, 'NOT_FOUND');
export const conflict = (message: string, fieldErrors?: FieldErrors) => new AppError(409, message, 'CONFLICT', fieldErrors);
export const tooManyRequests = (message = 'Too many attempts. Please try again later.') =>
  new AppError(429, message, 'RATE_LIMITED');
export const unavailable = (message = 'Service unavailable') => new AppError(503, message, 'UNAVAILABLE');

/** The answer to every API request while the database cannot be reached (with `Retry-After`). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The shop is temporarily unavailable, please try again in a moment';
export const DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  '57P01', '57P02', '57P03', '53300',
]);
const CONNECTION_ERROR_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
  /Cannot use a pool after calling end/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
];

/**
 * Whether `err` (or an error in its `cause` chain: Drizzle wraps the driver's) says the database
 * cannot be reached: a refused, reset or timed-out connection, a server shutting down or starting
 * (57P01-57P03), SQLSTATE class 08 (connection exception), or the pool's connect timeout. Such an
 * error is the database's outage, not the request's fault: 503 with Retry-After, never 500.
 */
export function isDatabaseUnavailableError(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    // fetch() to an outside service (PayPal, the supplier, the LLM) failing is not the database's outage.
    if (current instanceof TypeError && current.message === 'fetch failed') return false;
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && CONNECTION_ERROR_MESSAGES.some((re) => re.test(message))) return true;
    // AggregateError (a host with several addresses, each refused).
    if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailableError(e))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
