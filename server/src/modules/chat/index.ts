// The chat module's public face.
export { chatRoutes } from './chat.routes.ts';
export { chatSocketRoutes, CHAT_SOCKET_PATH } from './chat.socket.ts';
export { chatServiceFor, endGuestChat } from './chat-identity.ts';
