-- Live chat (issue 11): one conversation per customer or guest, and its messages.
CREATE TABLE chat_conversations (
  id char(24) PRIMARY KEY,
  -- a user id, or a guest id (contains 'guest'); no foreign key: guests have no user row
  user_id text NOT NULL,
  user_name text NOT NULL,
  user_email text NOT NULL,
  is_guest boolean NOT NULL DEFAULT false,
  last_activity timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX chat_conversations_user_id_key ON chat_conversations (user_id);
CREATE INDEX chat_conversations_last_activity_idx ON chat_conversations (last_activity DESC, id DESC);

CREATE TABLE chat_messages (
  id char(24) PRIMARY KEY,
  conversation_id char(24) NOT NULL REFERENCES chat_conversations(id) ON DELETE CASCADE,
  -- the customer or guest the conversation belongs to
  user_id text NOT NULL,
  sender text NOT NULL CONSTRAINT chat_messages_sender_check CHECK (sender IN ('user', 'admin', 'ai')),
  sender_id text NOT NULL,
  sender_name text NOT NULL,
  sender_email text NOT NULL,
  -- set on an administrator's reply: the customer or guest it goes to
  recipient_id text,
  content text NOT NULL,
  -- the sender's own id for the message: a resend after a dropped connection is not stored twice
  client_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX chat_messages_sender_client_key ON chat_messages (sender_id, client_id);
CREATE INDEX chat_messages_user_id_idx ON chat_messages (user_id, id);
