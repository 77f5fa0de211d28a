import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { whenPageSettled } from '../../lib/after-load';
import { requestToasts, subscribeToToastRequests, toastsRequested } from '../../lib/toast';

const Toasts = lazy(() => import('./Toasts'));

/**
 * Mounts the toast container when the first toast comes, or once the page has loaded and is idle
 * (pages that import react-toastify themselves send their toasts straight to it), so neither
 * react-toastify nor its stylesheet is part of the first load.
 */
export function ToastHost() {
  const isRequested = useSyncExternalStore(subscribeToToastRequests, toastsRequested, toastsRequested);

  useEffect(() => {
    if (isRequested) return;
    return whenPageSettled(() => void requestToasts(), 0);
  }, [isRequested]);

  if (!isRequested) return null;
  return (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  );
}
