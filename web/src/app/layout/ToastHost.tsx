import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { whenPageSettled } from '../../lib/after-load';
import { requestToasts, subscribeToToastRequests, toastsRequested } from '../../lib/toast';

const Toasts = lazy(() => import('./Toasts'));

/**
 * Mounts the toast container when the first toast comes (lib/toast), or once the page has settled
 * (lib/after-load), so neither react-toastify nor its stylesheet is part of a page's first load.
 */
export function ToastHost() {
  const isRequested = useSyncExternalStore(subscribeToToastRequests, toastsRequested, toastsRequested);

  useEffect(() => {
    if (isRequested) return;
    return whenPageSettled(() => void requestToasts());
  }, [isRequested]);

  if (!isRequested) return null;
  return (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  );
}
