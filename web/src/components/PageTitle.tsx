import { useEffect } from 'react';

/** Sets the document title and renders the page heading. */
export function PageTitle({ title, as: Tag = 'h1', className = 'h3 my-3' }: { title: string; as?: 'h1' | 'h2'; className?: string }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <Tag className={className}>{title}</Tag>;
}

export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
