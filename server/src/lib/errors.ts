export type FieldErrors = Record<string, string>;

/** An error whose message is safe to show to the caller. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly code?: string,
    public readonly fieldErrors?: FieldErrors,
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
