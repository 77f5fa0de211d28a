import { z } from 'zod';

/*
 * The account fields' client-side checks (SPEC section 5), shared by the auth forms
 * (features/auth/lib/schemas.ts) and the profile form (features/users/lib/profile-schema.ts); the
 * server checks again. Loaded with those schemas, behind lazyResolver.
 */

export const requiredName = z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters');

export const requiredEmail = z.string().trim().min(1, 'Email is required').pipe(z.email('Please enter a valid email address'));
