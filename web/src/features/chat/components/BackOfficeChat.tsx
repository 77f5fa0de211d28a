import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useStore } from '../../../lib/store';
import { allHistoryKey, onlineUsersQueryOptions } from '../api/chat-api';
import { useChatConnection } from '../hooks/use-chat-connection';
import { announceAvailability } from '../lib/admin-availability';
import { blinkTitle, stopTitleBlink } from '../lib/alerts';
import { isLookingAt } from '../lib/open-conversation';

/** Socket events that come in a burst (a busy evening) refresh the chat lists once. */
const LIST_REFRESH_DELAY_MS = 300;

/**
 * The back office's hold on the tab's chat socket (the one the storefront's widget uses), on every
 * admin page: the administrator stays reachable (the server counts them online while a chat tab is
 * in use, and their Online/Offline choice is told to the server), the chat lists and the sidebar's
 * unread count follow new messages, the list of people online follows the socket, and a customer's
 * message the administrator is not looking at blinks the tab's title. After a reconnect the chat
 * data is read again. Renders nothing.
 */
export function BackOfficeChat() {
  const { state } = useStore();
  const adminId = state.userInfo?.isAdmin ? state.userInfo._id : null;
  const queryClient = useQueryClient();
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (adminId) announceAvailability(adminId);
  }, [adminId]);
  useEffect(() => () => {
    if (refreshTimer.current) clearTimeout(refreshTimer.current);
    stopTitleBlink();
  }, []);

  const refreshLists = () => {
    if (refreshTimer.current) return;
    refreshTimer.current = setTimeout(() => {
      refreshTimer.current = null;
      void queryClient.invalidateQueries({ queryKey: allHistoryKey });
    }, LIST_REFRESH_DELAY_MS);
  };

  useChatConnection(adminId ? `admin:${adminId}` : null, {
    onEvent: (e) => {
      if (e.type === 'message') {
        refreshLists();
        if (e.message.sender === 'user' && !isLookingAt(e.message.userId)) blinkTitle();
      } else if (e.type === 'online-users') {
        queryClient.setQueryData(onlineUsersQueryOptions().queryKey, { users: e.users });
      }
    },
    // Back after a gap: what the pages show may have missed messages.
    fetchMissed: async () => {
      void queryClient.invalidateQueries({ queryKey: ['chat'] });
      return [];
    },
  });
  return null;
}
