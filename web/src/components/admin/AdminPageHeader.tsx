import type { ReactNode } from 'react';
import { PageTitle } from '../PageTitle';

/** An admin page's title (h1, document title) with its main actions beside it, wrapping on a phone. */
export function AdminPageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
      <PageTitle title={title} />
      {children}
    </div>
  );
}
