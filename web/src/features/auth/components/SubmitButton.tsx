import type { ReactNode } from 'react';

/** A submit button that shows a spinner and is disabled while the request is pending. */
export function SubmitButton({ isPending, children, className = 'btn btn-primary w-100' }: { isPending: boolean; children: ReactNode; className?: string }) {
  return (
    <button type="submit" className={className} disabled={isPending} aria-busy={isPending || undefined}>
      {isPending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
      {children}
    </button>
  );
}
