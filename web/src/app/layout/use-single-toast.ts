import { useEffect } from 'react';
import { toast } from 'react-toastify';

/**
 * The spec shows one toast at a time. react-toastify's `limit` queues the rest, so a stale toast
 * would pop up after the current one; instead every new toast replaces the one on screen and
 * nothing waits in a queue.
 */
export function useSingleToast() {
  useEffect(() => {
    let shown: Array<string | number> = [];
    return toast.onChange((item) => {
      if (item.status === 'added') {
        for (const id of shown) if (id !== item.id) toast.dismiss(id);
        shown = [item.id];
      } else if (item.status === 'removed') {
        shown = shown.filter((id) => id !== item.id);
      }
    });
  }, []);
}
