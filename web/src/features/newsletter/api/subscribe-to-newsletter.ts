import type { MessageResponse } from '@shop/contracts';
import { api } from '../../../lib/api-client';

/**
 * POST newsletter/subscribe: the same answer for a new and an already subscribed address. A plain
 * call, in its own module: the footer's form is part of the initial chunk, react-query's mutations are not.
 */
export const subscribeToNewsletter = (body: { email: string }) => api.post<MessageResponse>('newsletter/subscribe', body);
