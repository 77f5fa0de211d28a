import { api } from '../../../lib/api-client';

/** POST users/signout: revokes the session server-side and clears the cookies. */
export const signOut = () => api.post<unknown>('users/signout');
