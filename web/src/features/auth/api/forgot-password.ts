import type { MessageResponse } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/forgot-password: answers the same message whether or not the account exists. */
export const forgotPassword = (body: { email: string }) => api.post<MessageResponse>('users/forgot-password', body);

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
