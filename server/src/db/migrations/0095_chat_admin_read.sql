-- How far administrators have read each conversation (issue 36): the newest message, in the order
-- messages are shown ((created_at, id)), that an administrator has seen on the back office's chat
-- page or answered. The customer's messages after it are unread. One mark per conversation, shared
-- by the administrators (the shop's inbox, read by whoever answers).
ALTER TABLE chat_conversations ADD COLUMN admin_read_at timestamptz;
ALTER TABLE chat_conversations ADD COLUMN admin_read_id char(24);

-- Conversations from before: read up to their newest message (history, not news).
UPDATE chat_conversations c
SET admin_read_at = m.created_at, admin_read_id = m.id
FROM (
  SELECT DISTINCT ON (user_id) user_id, created_at, id
  FROM chat_messages
  ORDER BY user_id, created_at DESC, id DESC
) m
WHERE m.user_id = c.user_id;
