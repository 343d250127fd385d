-- When a session token was last used to sign in: a token expires after a while unused
-- (--token-idle, 14 days) and a while after it was issued (--token-max, 90 days). NULL: not used
-- since it was issued.
ALTER TABLE sessions ADD COLUMN used_at TEXT;
