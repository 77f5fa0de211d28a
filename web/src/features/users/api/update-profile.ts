import type { UpdateProfileBody, UpdateProfileResponse } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * PUT users/profile: returns the updated user, which replaces the session's user. A new e-mail is not
 * set yet: `pendingEmail` is where the confirmation link went, and `email` stays until it is opened.
 */
export const updateProfile = (body: UpdateProfileBody) => api.put<UpdateProfileResponse>('users/profile', body);

export function useUpdateProfile() {
  return useMutation({ mutationFn: updateProfile });
}
