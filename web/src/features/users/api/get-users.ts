import type { AdminUser, UserListResponse } from '@shop/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const adminUsersKey = ['users', 'admin'] as const;
export const USERS_LIST_PAGE_SIZE = 10;

/** GET users?page=&pageSize=&search= (admin). */
export const getUsers = (page: number, search: string) =>
  api.get<UserListResponse>('users', { page, pageSize: USERS_LIST_PAGE_SIZE, search: search || undefined });

export const usersQueryOptions = (page: number, search: string) =>
  queryOptions({ queryKey: [...adminUsersKey, 'list', page, search], queryFn: () => getUsers(page, search), placeholderData: keepPreviousData });

export function useUsers(page: number, search: string) {
  return useQuery(usersQueryOptions(page, search));
}

/** GET users/{id} (admin). */
export const getUser = (id: string) => api.get<AdminUser>(`users/${id}`);

export const userQueryOptions = (id: string) => queryOptions({ queryKey: [...adminUsersKey, 'one', id], queryFn: () => getUser(id) });

export function useUser(id: string | undefined) {
  return useQuery({ ...userQueryOptions(id ?? ''), enabled: Boolean(id) });
}
