import type { ReactNode } from 'react';
import { PageTitle } from '../../../components/PageTitle';

/** The narrow centred card the auth screens share. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="shop-auth-card mx-auto my-3">
      <PageTitle title={title} />
      {children}
    </div>
  );
}
