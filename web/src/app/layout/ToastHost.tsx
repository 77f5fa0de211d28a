import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { requestToasts, subscribeToToastRequests, toastsRequested } from '../../lib/toast';

const Toasts = lazy(() => import('./Toasts'));

/**
 * Mounts the toast container when the first toast comes, or once the page is idle (pages that import
 * react-toastify themselves send their toasts straight to it), so neither react-toastify nor its
 * stylesheet is part of the first load.
 */
export function ToastHost() {
  const isRequested = useSyncExternalStore(subscribeToToastRequests, toastsRequested, toastsRequested);

  useEffect(() => {
    if (isRequested) return;
    const load = () => void requestToasts();
    const idle = (window as { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number }).requestIdleCallback;
    if (idle) {
      const id = idle(load, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(load, 1500);
    return () => window.clearTimeout(id);
  }, [isRequested]);

  if (!isRequested) return null;
  return (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  );
}
