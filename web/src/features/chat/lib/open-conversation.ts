/**
 * The conversation an administrator has on screen in the back office (its customer's or guest's
 * id), so a new message there does not also blink the tab's title: it is in front of them.
 */
let openUserId: string | null = null;

export function setOpenConversation(userId: string | null): void {
  openUserId = userId;
}

/** Whether the administrator is looking at this conversation now (on its page, in a visible tab). */
export function isLookingAt(userId: string): boolean {
  return openUserId === userId && (typeof document === 'undefined' || document.visibilityState === 'visible');
}
