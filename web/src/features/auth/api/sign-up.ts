import type { SignUpBody, User } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/signup: creates the account, signs it in and returns the user. */
export const signUp = (body: SignUpBody) => api.post<User>('users/signup', body);

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
