import type { UpdateProfileBody, User } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** PUT users/profile: returns the updated user, which replaces the session's user. */
export const updateProfile = (body: UpdateProfileBody) => api.put<User>('users/profile', body);

export function useUpdateProfile() {
  return useMutation({ mutationFn: updateProfile });
}
