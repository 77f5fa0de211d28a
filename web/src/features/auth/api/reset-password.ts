import type { MessageResponse } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/reset-password: sets a new password with the single-use token from the e-mail. */
export const resetPassword = (body: { token: string; password: string }) => api.post<MessageResponse>('users/reset-password', body);

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
