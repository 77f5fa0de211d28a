import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordFormSchema, resetPasswordFormSchema, signInFormSchema, signUpFormSchema } from './schemas';

/* The auth forms' resolvers: loaded on first validation (lib/lazy-resolver.ts), with zod. */

export const signInResolver = zodResolver(signInFormSchema);
export const signUpResolver = zodResolver(signUpFormSchema);
export const forgotPasswordResolver = zodResolver(forgotPasswordFormSchema);
export const resetPasswordResolver = zodResolver(resetPasswordFormSchema);
