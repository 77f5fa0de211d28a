import type { ConfirmEmailChangeBody, ConfirmEmailChangeResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { currentUserKey } from '../../auth';

/** POST users/confirm-email: the token of the link mailed to a new address makes it the account's e-mail. */
export const confirmEmail = (body: ConfirmEmailChangeBody) => api.post<ConfirmEmailChangeResponse>('users/confirm-email', body);

/**
 * Confirms, then asks the server who is signed in here: if it is the account whose address moved,
 * the header and the profile show the new one (SessionSync), whoever's browser opened the link.
 */
export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserKey }),
  });
}
