import { parseWholeNumber } from '@shop/contracts/numbers';
import { useLocation, useSearchParams } from 'react-router';

export type ListParamValues<K extends string> = Record<K, string>;

/** A page number from the address: digits (the server's parser: not "0x2" or "1e1") of at least 1, else 1. */
export function pageFromParam(value: string | null): number {
  const parsed = parseWholeNumber(value ?? '');
  return parsed.ok && parsed.value >= 1 ? parsed.value : 1;
}

/** `?a=b&page=n` for the given values, leaving out defaults (and page 1) so addresses stay short. */
export function listQueryString<K extends string>(values: ListParamValues<K>, defaults: ListParamValues<K>, page: number): string {
  const qs = new URLSearchParams();
  for (const key of Object.keys(defaults) as K[]) {
    const value = values[key];
    if (value !== '' && value !== defaults[key]) qs.set(key, value);
  }
  if (page > 1) qs.set('page', String(page));
  const s = qs.toString();
  return s ? `?${s}` : '';
}

/**
 * The filters and page of an admin list, kept in the address (so Back, reload, a shared link and
 * "return after saving" all land on the same view). `update` changes some filters and goes back to
 * page 1 unless a page is given; `hrefFor(n)` is the link of page n with the current filters.
 */
export function useListQueryParams<K extends string>(defaults: ListParamValues<K>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const { pathname } = useLocation();
  const page = pageFromParam(searchParams.get('page'));
  const values = { ...defaults };
  for (const k of Object.keys(defaults) as K[]) values[k] = searchParams.get(k) ?? defaults[k];

  const hrefFor = (n: number) => `${pathname}${listQueryString(values, defaults, n)}`;
  const update = (patch: Partial<ListParamValues<K>>, nextPage = 1) =>
    setSearchParams(new URLSearchParams(listQueryString({ ...values, ...patch }, defaults, nextPage)));
  return { page, values, hrefFor, update, currentHref: hrefFor(page) };
}
