import type { ChatMessage, ChatSummary, OnlineUser } from '@shop/contracts/chat-constants';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

// The chat calls of SPEC §7 (the leads calls belong to the dashboard feature).

export interface GuestInfo { guestId: string; name: string; email: string }
export type VerifyGuestResponse = ({ success: true } & GuestInfo) | { success: false };

/** GET chat/verify-guest: the guest of this browser's guest-session cookie, if any. */
export const verifyGuest = () => api.get<VerifyGuestResponse>('chat/verify-guest');
/** POST chat/guest-session {name, email}: the server makes the guestId and sets the cookie. */
export const createGuestSession = (body: { name: string; email: string }) => api.post<{ name: string; guestId: string }>('chat/guest-session', body);
export const endGuestSession = () => api.post<{ message: string }>('chat/end-guest-session');
export const getHistory = (after?: string) => api.get<ChatSummary[]>('chat/history', { after });
export const getGuestHistory = (guestId: string, after?: string) => api.get<{ messages: ChatMessage[] }>('chat/guest-history', { guestId, after });
export const getUserMessages = (userId: string, after?: string) => api.get<{ messages: ChatMessage[] }>(`chat/user-messages/${encodeURIComponent(userId)}`, { after });
export const getAdminStatus = () => api.get<{ isOnline: boolean }>('chat/admin-status');
export const toggleAdminStatus = (isOnline: boolean) => api.post<{ isOnline: boolean; message: string }>('chat/toggle-admin-status', { isOnline });
export const getOnlineUsers = () => api.get<{ users: OnlineUser[] }>('chat/online-users');
/** The people connected to the chat now (administrators): kept current by the socket's online-users events. */
export const onlineUsersQueryOptions = () => queryOptions({ queryKey: ['chat', 'online-users'], queryFn: getOnlineUsers, staleTime: Infinity });
export const useOnlineUsers = (enabled = true) => useQuery({ ...onlineUsersQueryOptions(), enabled });

export interface AllHistoryResponse {
  chats: ChatSummary[];
  page: number;
  pages: number;
  total: number;
  /** Conversations with messages no administrator has read (all of them, whatever the search). */
  unreadConversations: number;
}

/** The key of every chat list page (the socket's messages make them all stale). */
export const allHistoryKey = ['chat', 'all-history'] as const;

/** GET chat/all-history: administrators' paged, searchable list of conversations. */
export const getAllHistory = (page: number, search: string) => api.get<AllHistoryResponse>('chat/all-history', { page, search: search || undefined });
export const allHistoryQueryOptions = (page: number, search: string) =>
  queryOptions({ queryKey: [...allHistoryKey, page, search], queryFn: () => getAllHistory(page, search), placeholderData: keepPreviousData });
export const useAllHistory = (page: number, search: string) => useQuery(allHistoryQueryOptions(page, search));
/** How many conversations have unread messages (the back office's Chats badge): the first list page's count. */
export const useUnreadConversations = (enabled = true) =>
  useQuery({ ...allHistoryQueryOptions(1, ''), select: (d) => d.unreadConversations, enabled }).data ?? 0;

/** GET chat/chat/{id}: one conversation with its messages. */
export const getChat = (id: string) => api.get<ChatSummary>(`chat/chat/${encodeURIComponent(id)}`);
/** Read again whenever the page opens (messages arriving while it was closed are not kept in the cache). */
export const chatQueryOptions = (id: string) => queryOptions({ queryKey: ['chat', 'chat', id], queryFn: () => getChat(id), retry: false, staleTime: 0 });
export const useChat = (id: string) => useQuery(chatQueryOptions(id));

/** POST chat/chat/{id}/read: the administrator has seen the conversation up to `messageId`; the customer's messages still unread. */
export const markChatRead = (id: string, messageId: string) => api.post<{ unread: number }>(`chat/chat/${encodeURIComponent(id)}/read`, { messageId });
