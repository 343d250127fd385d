-- The entry period of a running tournament: PostgreSQL's twin of ../0010_tournament_purchases.sql.
ALTER TABLE tournament_entries ADD COLUMN entry INTEGER NOT NULL DEFAULT 1 CHECK (entry >= 1);
ALTER TABLE tournament_entries ADD COLUMN rebuys INTEGER NOT NULL DEFAULT 0 CHECK (rebuys >= 0);
ALTER TABLE tournament_entries ADD COLUMN add_ons INTEGER NOT NULL DEFAULT 0 CHECK (add_ons >= 0);
ALTER TABLE tournament_entries ADD COLUMN bought BIGINT NOT NULL DEFAULT 0 CHECK (bought >= 0);
ALTER TABLE tournament_entries DROP CONSTRAINT tournament_entries_pkey;
ALTER TABLE tournament_entries ADD PRIMARY KEY (tournament_id, account_id, entry);
ALTER TABLE tournaments ADD COLUMN state_seq BIGINT NOT NULL DEFAULT 0;
