import type { ConfirmSignUpBody, User } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/confirm-signup: the mailed token creates the account, signs it in and returns the user. */
export const confirmSignUp = (body: ConfirmSignUpBody) => api.post<User>('users/confirm-signup', body);

export function useConfirmSignUp() {
  return useMutation({ mutationFn: confirmSignUp });
}
