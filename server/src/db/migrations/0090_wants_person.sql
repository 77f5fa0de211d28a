-- A person asked for (issue 36): when a customer or guest asks the assistant for a person ("talk to a
-- human", "agent") or is upset (anger, insults), their conversation and their lead are marked with
-- the time, so the back office shows "Wants a person" in the chats list, the leads table and the lead
-- dialog. An administrator's chat reply to that person clears both marks; a lead's status change
-- clears the lead's.
ALTER TABLE chat_conversations ADD COLUMN wants_person_at timestamptz;
ALTER TABLE leads ADD COLUMN wants_person_at timestamptz;
