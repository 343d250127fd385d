-- The entry period of a running tournament: late registration and re-entries are entries of
-- their own (an account's first is entry 1, each re-entry the next), and rebuys and add-ons are
-- counted on the entry that took them, with the chips they paid (bought: to the prize pool, as
-- the buy-in). A tournament's state is written with the number of the change it follows
-- (state_seq): a change written late never replaces a later one's state.
CREATE TABLE tournament_entries_new (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    entry         INTEGER NOT NULL DEFAULT 1 CHECK (entry >= 1),
    buy_in        INTEGER NOT NULL CHECK (buy_in >= 0),
    fee           INTEGER NOT NULL CHECK (fee >= 0),
    status        TEXT NOT NULL DEFAULT 'registered'
                  CHECK (status IN ('registered', 'playing', 'out')),
    place         INTEGER,
    prize         INTEGER NOT NULL DEFAULT 0,
    tied          INTEGER NOT NULL DEFAULT 0,
    registered_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    rebuys        INTEGER NOT NULL DEFAULT 0 CHECK (rebuys >= 0),
    add_ons       INTEGER NOT NULL DEFAULT 0 CHECK (add_ons >= 0),
    bought        INTEGER NOT NULL DEFAULT 0 CHECK (bought >= 0),
    PRIMARY KEY (tournament_id, account_id, entry)
);
INSERT INTO tournament_entries_new (tournament_id, account_id, buy_in, fee, status, place, prize,
                                    tied, registered_at)
    SELECT tournament_id, account_id, buy_in, fee, status, place, prize, tied, registered_at
    FROM tournament_entries;
DROP TABLE tournament_entries;
ALTER TABLE tournament_entries_new RENAME TO tournament_entries;
CREATE INDEX tournament_entries_by_account ON tournament_entries (account_id, tournament_id);
ALTER TABLE tournaments ADD COLUMN state_seq INTEGER NOT NULL DEFAULT 0;
