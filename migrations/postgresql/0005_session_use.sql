-- When a session token was last used to sign in: see ../0005_session_use.sql.
ALTER TABLE sessions ADD COLUMN used_at TIMESTAMPTZ;
