import type { User } from '@shop/contracts';
import { useEffect, useEffectEvent } from 'react';
import { useStore } from '../../../lib/store';
import { SESSION_EXPIRED_EVENT } from '../../../lib/api-client';
import { useCurrentUser } from '../api/get-current-user';
import { useLocalSignOut } from '../hooks/use-session';

const sameUser = (a: User, b: User) => a._id === b._id && a.name === b.name && a.email === b.email && a.isAdmin === b.isAdmin;

/**
 * Keeps the stored user in step with the server session (mounted once in the layout):
 * - GET users/current says null while a user is stored: local sign-out (guards then send protected pages to /signin);
 * - it returns a user while none is stored (session restore): USER_SIGNIN; a changed user: USER_UPDATE;
 * - a failed token refresh (SESSION_EXPIRED_EVENT): local sign-out and /signin.
 * - nobody, or no answer, while the header waits for it (sessionPending): SESSION_SETTLED (Sign In shows).
 * Nothing is restored after an explicit sign-out (isLoggedOut).
 */
export function SessionSync() {
  const { state, dispatch } = useStore();
  const signOutLocally = useLocalSignOut();
  const current = useCurrentUser(!state.isLoggedOut);
  const { data, dataUpdatedAt, isSuccess, isError } = current;

  const onServerAnswer = useEffectEvent((user: User | null) => {
    if (state.isLoggedOut) return;
    if (!user) {
      if (state.userInfo) signOutLocally({ redirect: false });
      else if (state.sessionPending) dispatch({ type: 'SESSION_SETTLED' });
      return;
    }
    if (!state.userInfo || state.userInfo._id !== user._id) dispatch({ type: 'USER_SIGNIN', payload: user });
    else if (!sameUser(state.userInfo, user)) dispatch({ type: 'USER_UPDATE', payload: user });
  });

  useEffect(() => {
    if (isSuccess && data !== undefined) onServerAnswer(data);
  }, [data, dataUpdatedAt, isSuccess]);

  // users/current could not be asked (offline, server down): the header stops waiting and offers Sign In.
  const onUnanswered = useEffectEvent(() => {
    if (state.sessionPending && !state.pendingRestore) dispatch({ type: 'SESSION_SETTLED' });
  });
  useEffect(() => {
    if (isError) onUnanswered();
  }, [isError]);

  const onSessionExpired = useEffectEvent(() => {
    if (state.userInfo) signOutLocally();
    else dispatch({ type: 'SET_LOGGED_OUT' });
  });

  useEffect(() => {
    const handler = () => onSessionExpired();
    window.addEventListener(SESSION_EXPIRED_EVENT, handler);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, handler);
  }, []);

  return null;
}
