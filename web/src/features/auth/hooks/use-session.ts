import type { User } from '@shop/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useStore } from '../../../app/store';
import { currentUserKey } from '../api/get-current-user';
import { signOut } from '../api/sign-out';

/**
 * Starts the session in the client after sign-in or sign-up: USER_SIGNIN (clears isLoggedOut) and the
 * current-user cache set to the same user, so a stale "null" from before cannot sign the user out again.
 */
export function useEstablishSession() {
  const { dispatch } = useStore();
  const queryClient = useQueryClient();
  return useCallback(
    (user: User) => {
      void queryClient.cancelQueries({ queryKey: currentUserKey });
      queryClient.setQueryData(currentUserKey, user);
      dispatch({ type: 'USER_SIGNIN', payload: user });
    },
    [dispatch, queryClient],
  );
}

/** Replaces the signed-in user after a profile update (USER_UPDATE) and keeps the cache in step. */
export function useReplaceSessionUser() {
  const { dispatch } = useStore();
  const queryClient = useQueryClient();
  return useCallback(
    (user: User) => {
      queryClient.setQueryData(currentUserKey, user);
      dispatch({ type: 'USER_UPDATE', payload: user });
    },
    [dispatch, queryClient],
  );
}

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
