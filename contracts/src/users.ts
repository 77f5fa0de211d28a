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
