import { zodResolver } from '@hookform/resolvers/zod';
import { CURRENT_PASSWORD_REQUIRED, PASSWORD_MIN, PASSWORDS_DO_NOT_MATCH } from '@shop/contracts/constants';
import { z } from 'zod';
import { requiredEmail, requiredName } from '../../../lib/account-fields';
import { changesCredentials } from './credentials';

/**
 * SPEC section 5: name and email required; password may be empty; password and confirm must match.
 * Changing the e-mail or the password also needs the current password.
 */
export function profileFormSchema(currentEmail: string) {
  return z
    .object({
      name: requiredName,
      email: requiredEmail,
      password: z.string().refine((v) => v === '' || v.length >= PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`),
      confirmPassword: z.string(),
      currentPassword: z.string(),
    })
    .refine((v) => v.password === v.confirmPassword, {
      message: PASSWORDS_DO_NOT_MATCH,
      path: ['confirmPassword'],
      when: (payload) => {
        const v = payload.value as { password?: unknown; confirmPassword?: unknown };
        return typeof v.password === 'string' && typeof v.confirmPassword === 'string';
      },
    })
    .refine((v) => !changesCredentials(v, currentEmail) || v.currentPassword !== '', {
      message: CURRENT_PASSWORD_REQUIRED,
      path: ['currentPassword'],
      when: (payload) => {
        const v = payload.value as { email?: unknown; password?: unknown; currentPassword?: unknown };
        return typeof v.email === 'string' && typeof v.password === 'string' && typeof v.currentPassword === 'string';
      },
    });
}
export type ProfileForm = z.infer<ReturnType<typeof profileFormSchema>>;

/** The profile form's resolver, loaded on first validation (lib/lazy-resolver.ts), with zod. */
export const profileResolver = (currentEmail: string) => zodResolver(profileFormSchema(currentEmail));
