import type { LeadListResponse, ListLeadsQuery, UpdateLeadBody, UpdateLeadResponse } from '@shop/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const leadsKey = ['leads'] as const;
export type LeadListParams = Partial<Pick<ListLeadsQuery, 'status' | 'interest' | 'search' | 'page' | 'pageSize'>>;

/** GET chat/leads (admin): a page of leads plus statistics. */
export const getLeads = (params: LeadListParams) =>
  api.get<LeadListResponse>('chat/leads', {
    ...params,
    status: params.status === 'all' ? undefined : params.status,
    interest: params.interest === 'all' ? undefined : params.interest,
  });

export const leadsQueryOptions = (params: LeadListParams) =>
  queryOptions({ queryKey: [...leadsKey, params], queryFn: () => getLeads(params), placeholderData: keepPreviousData });

export function useLeads(params: LeadListParams) {
  return useQuery(leadsQueryOptions(params));
}

/** PUT chat/leads/{id} {status, notes, followUpDate, ...details}. */
export const updateLead = ({ id, body }: { id: string; body: UpdateLeadBody }) => api.put<UpdateLeadResponse>(`chat/leads/${id}`, body);

export function useUpdateLead() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateLead, onSuccess: () => queryClient.invalidateQueries({ queryKey: leadsKey }) });
}
