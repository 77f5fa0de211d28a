import type { User } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
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
  const hasStoredSession = readJson<unknown>(storageKeys.userInfo, null) !== null && !readJson<boolean>(storageKeys.isLoggedOut, false);
  if (!hasStoredSession) return null;
  return (await refreshSession()) ? fetchCurrentUser() : null;
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
