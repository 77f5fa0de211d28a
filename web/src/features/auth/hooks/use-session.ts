import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useStore } from '../../../lib/store';
import { currentUserKey } from '../api/get-current-user';
import { signOut } from '../api/sign-out';

let signedOutAt = Number.NEGATIVE_INFINITY;
const SIGN_OUT_WINDOW_MS = 2000;

/**
 * True just after this tab signed out. The sign-out goes to plain /signin; a route guard re-rendering
 * in the same moment (router updates are transitions, so the store update renders first) must not
 * replace that with /signin?redirect=<the page being left>.
 */
export function isSigningOut(): boolean {
  return Date.now() - signedOutAt < SIGN_OUT_WINDOW_MS;
}

/**
 * Ends the session in the client: USER_SIGNOUT (empties cart, address, payment method, message and sets
 * isLoggedOut), forgets every cached server answer, and optionally goes to /signin.
 */
export function useLocalSignOut() {
  const { dispatch } = useStore();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (opts: { redirect?: boolean } = {}) => {
      if (opts.redirect !== false) signedOutAt = Date.now();
      dispatch({ type: 'USER_SIGNOUT' });
      void queryClient.cancelQueries();
      queryClient.clear();
      // The logged-out answer is known: no need to ask the server again.
      queryClient.setQueryData(currentUserKey, null);
      if (opts.redirect !== false) void navigate('/signin');
    },
    [dispatch, queryClient, navigate],
  );
}

/** Sign Out: POST users/signout (a failure is only logged), then the local sign-out and /signin. */
export function useSignOut() {
  const signOutLocally = useLocalSignOut();
  return useCallback(async () => {
    try {
      await signOut();
    } catch (err) {
      console.error('Sign out failed', err);
    }
    signOutLocally();
  }, [signOutLocally]);
}
