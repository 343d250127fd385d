-- The server's bots: PostgreSQL's twin of ../0011_bots.sql.
ALTER TABLE accounts ADD COLUMN bot SMALLINT NOT NULL DEFAULT 0 CHECK (bot IN (0, 1));
CREATE INDEX accounts_bots ON accounts (bot) WHERE bot = 1;
