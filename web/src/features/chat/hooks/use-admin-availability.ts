import { CHAT_TEXTS } from '@shop/contracts/chat-constants';
import { useCallback, useState, useSyncExternalStore } from 'react';
import { toast } from '../../../lib/toast';
import { getAvailability, setAvailability, subscribeAvailability } from '../lib/admin-availability';

/** The administrator's Online/Offline switch (shared by the widget and the back office): its value, a toggle ('Failed to toggle admin status' when refused) and whether a change is on its way. */
export function useAdminAvailability() {
  const isOnline = useSyncExternalStore(subscribeAvailability, getAvailability, () => true);
  const [isSaving, setIsSaving] = useState(false);
  const toggle = useCallback(async () => {
    setIsSaving(true);
    try {
      await setAvailability(!getAvailability());
    } catch {
      toast.error(CHAT_TEXTS.toggleFailed);
    } finally {
      setIsSaving(false);
    }
  }, []);
  return { isOnline, isSaving, toggle };
}
