import { z } from 'zod';
import { idSchema } from './common.ts';

export const userSchema = z.object({
  _id: idSchema,
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

const email = z.string().trim().toLowerCase().pipe(z.email('Please enter a valid email address').max(254));

export const signInBodySchema = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').toLowerCase().pipe(z.email('Please enter a valid email address')),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
});
export type SignInBody = z.infer<typeof signInBodySchema>;

export const PASSWORD_MIN = 8;
const newPassword = z.string({ error: 'Password is required' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(200, 'Password must be at most 200 characters');

export const signUpBodySchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').pipe(email),
  password: newPassword,
});
export type SignUpBody = z.infer<typeof signUpBodySchema>;

export const updateProfileBodySchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').pipe(email),
  password: z.union([z.literal(''), newPassword]).optional(),
});
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

export const forgotPasswordBodySchema = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').pipe(email),
});
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

export const resetPasswordBodySchema = z.object({
  token: z.string({ error: 'Reset token is required' }).min(1, 'Reset token is required').max(200),
  password: newPassword,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

/** GET users/current: the signed-in user, or null. */
export const currentUserResponseSchema = userSchema.nullable();

export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for that email, we have sent a password reset link.';
export const RESET_PASSWORD_SUCCESS = 'Password has been reset. You can now sign in.';
export const INVALID_RESET_TOKEN = 'Password reset link is invalid or has expired';
export const INVALID_CREDENTIALS = 'Invalid email or password';

/** Sign-up with an e-mail that already has an account (compared case-insensitively). */
export const USER_EXISTS = 'User already exists';
/** Profile update to an e-mail that belongs to another account. */
export const EMAIL_IN_USE = 'Email is already in use by another account';
export const SIGNED_OUT_MESSAGE = 'Signed out successfully';
/** users/refresh-token without a refresh cookie. */
export const REFRESH_TOKEN_MISSING = 'Not signed in. Please sign in.';
/** users/refresh-token with an unknown, expired or revoked session. */
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
/** users/refresh-token with a refresh token that was already used: the whole session is revoked. */
export const REFRESH_TOKEN_REUSED = 'This session has been ended for your security. Please sign in again.';
/**
 * GET users/current with no valid access cookie but a live refresh cookie: 401 with code
 * ACCESS_TOKEN_EXPIRED, so the client refreshes the session and replays (a stale access token must
 * not read as "signed out").
 */
export const ACCESS_TOKEN_EXPIRED = 'Your access token has expired. Refresh the session.';
/** 429 on sign-in, sign-up, forgot and reset password. */
export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again later.';
/** Client-side check on sign-up, profile and reset (SPEC section 5). */
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
/** Reset tokens are valid this long after forgot-password. */
export const RESET_TOKEN_TTL_MINUTES = 60;
