import { readJson, storageKeys, writeJson } from '../../../lib/storage';
import { toggleAdminStatus } from '../api/chat-api';

/**
 * An administrator's own Online/Offline switch, one value for the tab: the widget's header button and
 * the back office's chat pages show and change the same one. The browser remembers it (localStorage,
 * so the other tabs follow) and tells the server once per tab and administrator when the chat starts.
 */
let available: boolean | null = null;
let announcedFor: string | null = null;
const listeners = new Set<() => void>();

const notify = () => { for (const l of [...listeners]) l(); };

export function getAvailability(): boolean {
  available ??= readJson<boolean>(storageKeys.adminStatus, true);
  return available;
}

export function subscribeAvailability(listener: () => void): () => void {
  if (listeners.size === 0 && typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

/** Another tab switched: this one shows the same (the server holds one value per administrator). */
function onStorage(event: StorageEvent) {
  if (event.key !== storageKeys.adminStatus) return;
  available = null;
  notify();
}

/** Sets the administrator's availability on the server; the switch follows the server's answer. Throws when the server refuses. */
export async function setAvailability(next: boolean): Promise<boolean> {
  const r = await toggleAdminStatus(next);
  available = r.isOnline;
  writeJson(storageKeys.adminStatus, r.isOnline);
  notify();
  return r.isOnline;
}

/** Tells the server the availability this browser remembers, once per tab and administrator (whichever chat view starts first). */
export function announceAvailability(adminId: string): void {
  if (announcedFor === adminId) return;
  announcedFor = adminId;
  toggleAdminStatus(getAvailability()).catch(() => {
    if (announcedFor === adminId) announcedFor = null;
  });
}

/** Forgets the tab's state (tests). */
export function resetAvailability(): void {
  available = null;
  announcedFor = null;
  notify();
}
