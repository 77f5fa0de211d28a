/** '{n} new': a conversation's messages no administrator has read (nothing when there are none). */
export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="badge rounded-pill text-bg-danger" data-testid="chat-unread" title={`${count} unread ${count === 1 ? 'message' : 'messages'}`}>
      {count} new
    </span>
  );
}
