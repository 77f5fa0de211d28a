-- Mail bodies at rest (issue 21): from now on the shop writes outbox.text/html sealed (AES-256-GCM,
-- key derived from DATA_ENCRYPTION_KEY or JWT_SECRET: lib/mail-seal.ts), erases them once the
-- message is sent, and erases a mail carrying a link once the link has expired (erase_after).
-- Existing rows: bodies of messages already sent are erased here; a message carrying a link gets
-- the longest link lifetime (72 hours after it was written) as its erase time. The remaining
-- plain-text bodies are sealed by the shop at start (the key is not known to SQL).
ALTER TABLE outbox ADD COLUMN erase_after timestamptz;
ALTER TABLE outbox ADD COLUMN erased_at timestamptz;
UPDATE outbox SET erase_after = created_at + interval '72 hours' WHERE text LIKE '%?token=%';
UPDATE outbox SET text = '', html = NULL, erased_at = now() WHERE sent_at IS NOT NULL OR erase_after < now();
CREATE INDEX outbox_erase_after_idx ON outbox (erase_after) WHERE erased_at IS NULL AND erase_after IS NOT NULL;
