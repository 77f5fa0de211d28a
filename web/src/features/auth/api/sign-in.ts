import type { SignInBody, User } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/signin: sets the session cookies and returns the user. */
export const signIn = (body: SignInBody) => api.post<User>('users/signin', body);

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
