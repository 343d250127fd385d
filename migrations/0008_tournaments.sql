-- Tournaments and their entries. An entry's buy-in and fee leave the account's balance when it
-- registers (ledger reason tournament_entry) and stay with the tournament: unregistering or a
-- cancelled tournament gives them back (tournament_refund); at the start the fees go to the
-- creator (tournament_fee); each prize is paid when its player finishes (tournament_prize), in
-- the same transaction as the hand that put them out, once. Tournament chips are never account
-- chips: a tournament's tables have no table_seats rows.
CREATE TABLE tournaments (
    id         INTEGER PRIMARY KEY,
    config     TEXT NOT NULL,                   -- JSON: protocol/tournament_config.h
    created_by INTEGER NOT NULL REFERENCES accounts (id),
    status     TEXT NOT NULL DEFAULT 'registering'
               CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    state      TEXT,                            -- JSON: where it stands after its last change
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    started_at TEXT,
    ended_at   TEXT
);

CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    buy_in        INTEGER NOT NULL CHECK (buy_in >= 0),
    fee           INTEGER NOT NULL CHECK (fee >= 0),
    status        TEXT NOT NULL DEFAULT 'registered'
                  CHECK (status IN ('registered', 'playing', 'out')),
    place         INTEGER,                      -- once out (or the winner)
    prize         INTEGER NOT NULL DEFAULT 0,
    tied          INTEGER NOT NULL DEFAULT 0,
    registered_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX tournament_entries_by_account ON tournament_entries (account_id, tournament_id);
