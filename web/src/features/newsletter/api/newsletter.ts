import type { MessageResponse } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST newsletter/unsubscribe with the token from the confirmation mail. */
export const unsubscribeFromNewsletter = (body: { token: string }) => api.post<MessageResponse>('newsletter/unsubscribe', body);

export function useUnsubscribeFromNewsletter() {
  return useMutation({ mutationFn: unsubscribeFromNewsletter });
}
