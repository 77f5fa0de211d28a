-- An assistant's answer given because no administrator replied in time (issue 19): it says that an
-- administrator will follow up, and administrators see that it stood in for them.
ALTER TABLE chat_messages ADD COLUMN fallback boolean NOT NULL DEFAULT false;
