import { useEffect, useRef, useState } from 'react';
import type { ChatConnection } from '../lib/chat-connection';
import { acquireChatConnection, type ConnectionListener } from '../lib/shared-connection';

/**
 * The tab's shared chat connection for `key` (an identity, or null for none), re-rendering on its
 * changes. The handlers may change on every render (the newest ones are called); whether there is a
 * `fetchMissed` is read when the connection is taken.
 */
export function useChatConnection(key: string | null, handlers: Omit<ConnectionListener, 'onChange'>): ChatConnection | null {
  const [, setTick] = useState(0);
  const [connection, setConnection] = useState<ChatConnection | null>(null);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });
  useEffect(() => {
    if (!key) return undefined;
    const wantsCatchUp = Boolean(handlersRef.current.fetchMissed);
    const { connection: c, release } = acquireChatConnection(key, {
      onEvent: (e) => handlersRef.current.onEvent?.(e),
      onClosed: (code) => handlersRef.current.onClosed?.(code),
      onChange: () => setTick((n) => n + 1),
      ...(wantsCatchUp ? { fetchMissed: (after: string | undefined) => handlersRef.current.fetchMissed?.(after) ?? Promise.resolve([]) } : {}),
    });
    setConnection(c);
    return () => {
      release();
      setConnection(null);
    };
  }, [key]);
  return connection;
}
