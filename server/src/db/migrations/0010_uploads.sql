-- Uploaded image originals, shared by every app instance on PostgreSQL (issue 14). On the embedded
-- database the originals stay on disk and this table stays empty.
CREATE TABLE uploads (
  key text PRIMARY KEY,
  content_type text NOT NULL,
  size integer NOT NULL,
  -- hex SHA-256 of data: the ETag, and what backups and the move from disk verify against
  sha256 text NOT NULL,
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Images are already compressed: store them uncompressed out of line, so a chunked read
-- (substring) fetches only the TOAST chunks it needs.
ALTER TABLE uploads ALTER COLUMN data SET STORAGE EXTERNAL;
