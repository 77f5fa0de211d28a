import { Suspense, type ComponentType } from 'react';
import { PageLoading } from '../components/PageLoading';

/** A route's page in its own Suspense boundary (PageLoading while its lazy chunk loads): the storefront's routes (router.tsx) and the back office's (admin-routes.tsx). */
export const page = (Page: ComponentType) => (
  <Suspense fallback={<PageLoading />}>
    <Page />
  </Suspense>
);
