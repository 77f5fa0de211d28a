import { z } from 'zod';
import { idSchema } from './common.ts';
import { PASSWORD_MIN } from './constants.ts';

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

const newPassword = z.string({ error: 'Password is required' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(200, 'Password must be at most 200 characters');

/** A path inside the shop to return to (`?redirect=`): starts with one slash, no control characters. */
const redirectPath = z
  .string({ error: 'Redirect must be a path inside the shop' })
  .max(500, 'Redirect must be a path inside the shop')
  .refine(
    (v) => v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\') && ![...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
    'Redirect must be a path inside the shop',
  );

/**
 * POST users/signup. Answers 202 SIGNUP_CHECK_EMAIL whatever the address: a new address gets a
 * confirmation link (carrying `redirect`), a known one a "you already have an account" mail.
 */
export const signUpBodySchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').pipe(email),
  password: newPassword,
  redirect: redirectPath.optional(),
});
export type SignUpBody = z.infer<typeof signUpBodySchema>;

/** POST users/confirm-signup: the token of the mailed link creates the account and signs it in. */
export const confirmSignUpBodySchema = z.object({
  token: z.string({ error: 'Confirmation token is required' }).min(1, 'Confirmation token is required').max(200, 'Confirmation token is invalid'),
});
export type ConfirmSignUpBody = z.infer<typeof confirmSignUpBodySchema>;

/** PUT users/profile. Changing the e-mail or the password requires `currentPassword`. */
export const updateProfileBodySchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').pipe(email),
  password: z.union([z.literal(''), newPassword]).optional(),
  currentPassword: z.string({ error: 'Current password must be text' }).max(200, 'Current password must be at most 200 characters').optional(),
});
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

/**
 * PUT users/profile answer: the user as saved (which replaces the session's user). A new e-mail is
 * not saved yet: `pendingEmail` is the address the confirmation link was sent to; the account keeps
 * `email` until the link is opened.
 */
export const updateProfileResponseSchema = userSchema.extend({ pendingEmail: z.string().optional() });
export type UpdateProfileResponse = z.infer<typeof updateProfileResponseSchema>;

/** POST users/confirm-email: the token of the link mailed to the new address. */
export const confirmEmailChangeBodySchema = z.object({
  token: z.string({ error: 'Confirmation token is required' }).min(1, 'Confirmation token is required').max(200, 'Confirmation token is invalid'),
});
export type ConfirmEmailChangeBody = z.infer<typeof confirmEmailChangeBodySchema>;

/** POST users/confirm-email answer: the account's e-mail is now `email`. */
export const confirmEmailChangeResponseSchema = z.object({ message: z.string(), email: z.string() });
export type ConfirmEmailChangeResponse = z.infer<typeof confirmEmailChangeResponseSchema>;

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
