import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { getErrorMessage } from '../../lib/api-client';
import { ListSkeleton } from '../Skeleton';
import { MessageBox } from '../MessageBox';
import { Paginator } from '../Paginator';

export interface ListPaging {
  page: number;
  pages: number;
  hrefFor: (n: number) => string;
  /** The page links' accessible name ('Product pages'). */
  label: string;
}

/** The message of a page number past the last page. */
export const pageOutOfRangeText = (page: number, pages: number) =>
  `Page ${page} does not exist: there ${pages === 1 ? 'is only 1 page' : `are only ${pages} pages`}.`;

/**
 * What an admin list shows around its rows: placeholder rows while loading, the error, the empty message,
 * or, for a page number past the last page, a notice with a link to the last page and the page
 * links (never a blank list). Otherwise the rows (`children`) and the page links.
 */
export function ListState({
  isPending,
  error,
  isEmpty,
  empty,
  paging,
  children,
}: {
  isPending: boolean;
  error: unknown;
  isEmpty: boolean;
  empty: ReactNode;
  paging?: ListPaging;
  children: () => ReactNode;
}) {
  if (isPending) return <ListSkeleton />;
  if (error) return <MessageBox variant="danger">{getErrorMessage(error)}</MessageBox>;
  if (isEmpty && paging && paging.pages > 0 && paging.page > paging.pages) {
    return (
      <>
        <MessageBox variant="warning">
          {pageOutOfRangeText(paging.page, paging.pages)}{' '}
          <Link className="alert-link" to={paging.hrefFor(paging.pages)}>
            Go to page {paging.pages}
          </Link>
        </MessageBox>
        <Paginator page={paging.page} pages={paging.pages} hrefFor={paging.hrefFor} label={paging.label} />
      </>
    );
  }
  if (isEmpty) return <MessageBox>{empty}</MessageBox>;
  return (
    <>
      {children()}
      {paging && <Paginator page={paging.page} pages={paging.pages} hrefFor={paging.hrefFor} label={paging.label} />}
    </>
  );
}
