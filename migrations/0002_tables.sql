-- Poker tables, the chips on them, and every hand played.

CREATE TABLE tables (
    id         INTEGER PRIMARY KEY,
    config     TEXT NOT NULL,                   -- JSON: game, variant, structure, stakes, seats
    created_by INTEGER REFERENCES accounts (id),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    closed_at  TEXT
);

-- A seated player's stack between hands. Rows left at start-up are from a crash: their chips go
-- back to their owners (ledger reason "recovered").
CREATE TABLE table_seats (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    seat       INTEGER NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    stack      INTEGER NOT NULL CHECK (stack >= 0),
    PRIMARY KEY (table_id, seat)
);

-- A hand is written as running when it is dealt (with the commitment to its deck), and finished
-- or void, in one transaction with its seats and events, when it ends.
CREATE TABLE hands (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    number     INTEGER NOT NULL,
    config     TEXT NOT NULL,
    commitment TEXT NOT NULL,                   -- SHA-256 of the deck text, seed and salt
    deck       TEXT,                            -- revealed once the hand is over
    seed       TEXT,
    salt       TEXT,
    status     TEXT NOT NULL CHECK (status IN ('running', 'finished', 'void')),
    started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at   TEXT
);
CREATE INDEX hands_by_table ON hands (table_id, number);

CREATE TABLE hand_seats (
    hand_id     INTEGER NOT NULL REFERENCES hands (id),
    seat        INTEGER NOT NULL,
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    stack_start INTEGER NOT NULL,
    stack_end   INTEGER NOT NULL CHECK (stack_end >= 0),
    PRIMARY KEY (hand_id, seat)
);
CREATE INDEX hand_seats_by_account ON hand_seats (account_id, hand_id);

-- Every action and event of a hand in order, as JSON with all its cards (the history API filters
-- them for the asker).
CREATE TABLE hand_events (
    hand_id INTEGER NOT NULL REFERENCES hands (id),
    seq     INTEGER NOT NULL,
    body    TEXT NOT NULL,
    PRIMARY KEY (hand_id, seq)
);
