import type { User } from '@shop/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useStore } from '../../../lib/store';
import { currentUserKey } from '../api/get-current-user';

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
