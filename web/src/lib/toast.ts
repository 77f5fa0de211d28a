import type * as ReactToastify from 'react-toastify';
import type { ToastContent, ToastOptions } from 'react-toastify';

type Toastify = typeof ReactToastify;
type Kind = 'success' | 'error' | 'info' | 'warning';

let loading: Promise<Toastify> | undefined;
let loaded: Toastify | undefined;
let isRequested = false;
const listeners = new Set<() => void>();

/**
 * Loads react-toastify (its own chunk, with its stylesheet: the first paint needs neither) and asks
 * the layout's ToastHost to mount the container. A toast sent before the container is mounted waits
 * in react-toastify's own queue and shows as soon as it is.
 */
export function requestToasts(): Promise<Toastify> {
  if (!isRequested) {
    isRequested = true;
    for (const listener of listeners) listener();
  }
  loading ??= import('react-toastify').then((module) => (loaded = module));
  return loading;
}

/** For useSyncExternalStore in ToastHost: whether a toast (or the idle page) asked for the container. */
export const toastsRequested = () => isRequested;
export function subscribeToToastRequests(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const show = (kind: Kind) => (...args: [content: ToastContent, options?: ToastOptions]) => {
  if (loaded) loaded.toast[kind](...args);
  else void requestToasts().then(({ toast: t }) => t[kind](...args));
};

/**
 * react-toastify's toast.success/error/info/warning for every page and component, without
 * react-toastify in their chunks: the first toast loads it (and mounts the container), later ones are
 * sent at once. A page's first load therefore never carries the library.
 */
export const toast = { success: show('success'), error: show('error'), info: show('info'), warning: show('warning') };
