-- Which app instance (host:pid) last claimed a job: read by operators and by the fleet test that
-- kills the instance holding a claim (issue 14, background work runs once across the fleet).
ALTER TABLE jobs ADD COLUMN claimed_by text;
