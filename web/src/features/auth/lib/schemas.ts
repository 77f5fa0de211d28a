import { PASSWORD_MIN, PASSWORDS_DO_NOT_MATCH } from '@shop/contracts/constants';
import { z } from 'zod';
import { requiredEmail, requiredName } from '../../../lib/account-fields';

/* Client-side checks of the auth screens (SPEC section 5); the server checks again. */

export const newPassword = z
  .string()
  .min(1, 'Password is required')
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`);

const confirmPassword = z.string().min(1, 'Please confirm your password');

/** Checked whenever both passwords are filled in, even while other fields still have errors. */
const passwordsMatch = {
  message: PASSWORDS_DO_NOT_MATCH,
  path: ['confirmPassword'],
  when: (payload: { value: unknown }) => {
    const v = payload.value as { password?: unknown; confirmPassword?: unknown };
    return typeof v.password === 'string' && typeof v.confirmPassword === 'string' && v.confirmPassword.length > 0;
  },
};

export const signInFormSchema = z.object({
  email: requiredEmail,
  password: z.string().min(1, 'Password is required'),
});
export type SignInForm = z.infer<typeof signInFormSchema>;

export const signUpFormSchema = z
  .object({
    name: requiredName,
    email: requiredEmail,
    password: newPassword,
    confirmPassword,
  })
  .refine((v) => v.password === v.confirmPassword, passwordsMatch);
export type SignUpForm = z.infer<typeof signUpFormSchema>;

export const forgotPasswordFormSchema = z.object({ email: requiredEmail });
export type ForgotPasswordForm = z.infer<typeof forgotPasswordFormSchema>;

export const resetPasswordFormSchema = z
  .object({
    password: newPassword,
    confirmPassword,
  })
  .refine((v) => v.password === v.confirmPassword, passwordsMatch);
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
