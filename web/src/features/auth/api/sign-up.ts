import type { MessageResponse, SignUpBody } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * POST users/signup: answers 202 "check your e-mail" whether or not the address has an account;
 * the account is created by the mailed link (confirm-signup).
 */
export const signUp = (body: SignUpBody) => api.post<MessageResponse>('users/signup', body);

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
