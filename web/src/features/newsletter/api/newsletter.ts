import type { MessageResponse } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST newsletter/subscribe: the same answer for a new and an already subscribed address. */
export const subscribeToNewsletter = (body: { email: string }) => api.post<MessageResponse>('newsletter/subscribe', body);

/** POST newsletter/unsubscribe with the token from the confirmation mail. */
export const unsubscribeFromNewsletter = (body: { token: string }) => api.post<MessageResponse>('newsletter/unsubscribe', body);

export function useSubscribeToNewsletter() {
  return useMutation({ mutationFn: subscribeToNewsletter });
}

export function useUnsubscribeFromNewsletter() {
  return useMutation({ mutationFn: unsubscribeFromNewsletter });
}
