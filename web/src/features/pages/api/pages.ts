import type { Page, PageList, PageUpdateBody } from '@shop/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const pagesKey = ['pages'] as const;

/** GET pages/{slug}: title, Markdown body; the FAQ page with its questions. */
export const pageQueryOptions = (slug: string) => queryOptions({ queryKey: [...pagesKey, 'one', slug], queryFn: () => api.get<Page>(`pages/${encodeURIComponent(slug)}`) });

export function usePage(slug: string | undefined) {
  return useQuery({ ...pageQueryOptions(slug ?? ''), enabled: Boolean(slug) });
}

/** GET pages/{slug}?source=true: the page as stored, shipping placeholders unfilled (the editor). */
export const pageSourceQueryOptions = (slug: string) =>
  queryOptions({ queryKey: [...pagesKey, 'source', slug], queryFn: () => api.get<Page>(`pages/${encodeURIComponent(slug)}?source=true`) });

export function usePageSource(slug: string | undefined) {
  return useQuery({ ...pageSourceQueryOptions(slug ?? ''), enabled: Boolean(slug) });
}

/** GET pages: every information page (Admin → Pages). */
export function usePages() {
  return useQuery({ queryKey: [...pagesKey, 'list'], queryFn: () => api.get<PageList>('pages') });
}

/** PUT pages/{slug} (admin). */
export function useUpdatePage(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PageUpdateBody) => api.put<{ message: string; page: Page }>(`pages/${encodeURIComponent(slug)}`, body),
    onSuccess: (res) => {
      queryClient.setQueryData(pageQueryOptions(slug).queryKey, res.page);
      void queryClient.invalidateQueries({ queryKey: [...pagesKey, 'list'] });
      void queryClient.invalidateQueries({ queryKey: pageSourceQueryOptions(slug).queryKey });
    },
  });
}
