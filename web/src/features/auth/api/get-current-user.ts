import type { User } from '@shop/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, refreshSession } from '../../../lib/api-client';
import { readJson, storageKeys } from '../../../lib/storage';

export const currentUserKey = ['users', 'current'] as const;

async function fetchCurrentUser(): Promise<User | null> {
  try {
    return (await api.get<User | null>('users/current')) ?? null;
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return null;
    throw err;
  }
}

/**
 * GET users/current: the signed-in user, or null when signed out or refused (4xx).
 * The access cookie is short-lived, so when the server says "nobody" while this browser holds a
 * session that was not signed out, the refresh token gets one chance (shared with the API client's
 * refresh, since refresh tokens rotate) before the answer counts as signed out.
 * Network failures and server errors are thrown, so a flaky connection keeps the last known answer.
 */
export async function getCurrentUser(): Promise<User | null> {
  const user = await fetchCurrentUser();
  if (user) return user;
  if (!hasStoredSession()) return null;
  return (await refreshSession()) ? fetchCurrentUser() : null;
}

/** This browser stored a signed-in user and did not sign out since: its session may be renewed. */
function hasStoredSession(): boolean {
  return readJson<unknown>(storageKeys.userInfo, null) !== null && !readJson<boolean>(storageKeys.isLoggedOut, false);
}

/**
 * A server-rendered page whose request carried no session cookie (SsrData.noSession): GET
 * users/current would answer nobody, so that answer goes into the cache and is not asked for (one
 * request less on every anonymous page). A browser that stored a session still asks: its access
 * cookie may have expired while the refresh token, which only the refresh route receives, renews it.
 */
export function primeSignedOut(queryClient: QueryClient, noSession: boolean | undefined): void {
  if (noSession && !hasStoredSession()) queryClient.setQueryData(currentUserKey, null);
}

export const currentUserQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: currentUserKey,
    queryFn: getCurrentUser,
    enabled,
    staleTime: 5 * 60 * 1000,
    refetchInterval: 30 * 60 * 1000,
    refetchOnWindowFocus: true,
  });

export function useCurrentUser(enabled = true) {
  return useQuery(currentUserQueryOptions(enabled));
}
