import type { AdminCreateUserBody, AdminUpdateUserBody, AdminUserMessageResponse, MessageResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminUsersKey } from './get-users';

/** PUT users/{id} {id, name, email, isAdmin}. */
export const updateUser = ({ id, ...body }: AdminUpdateUserBody & { id: string }) =>
  api.put<AdminUserMessageResponse>(`users/${id}`, { id, ...body });

/** DELETE users/{id}. */
export const deleteUser = (id: string) => api.delete<MessageResponse>(`users/${id}`);

/** POST users (admin): the new account gets a set-password e-mail. */
export const createUser = (body: AdminCreateUserBody) => api.post<AdminUserMessageResponse>('users', body);

function useInvalidatingMutation<A, R>(fn: (a: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersKey }) });
}

export const useUpdateUser = () => useInvalidatingMutation(updateUser);
export const useDeleteUser = () => useInvalidatingMutation(deleteUser);
export const useCreateUser = () => useInvalidatingMutation(createUser);
