-- Player statistics, part 2 (docs/stats.md): the all-in EV of poker hands, and Chinese poker's
-- and leap rummy's own figures, in the same rows (game 'chinese': variant the profile, stake the
-- unit; game 'leap': variant '', stake the chips a point; position 0, structure '').
ALTER TABLE player_stats ADD COLUMN ev_net REAL NOT NULL DEFAULT 0; -- nets at the all-in equity
ALTER TABLE player_stats ADD COLUMN deal_units INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN scoops_t INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN scoops_o INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN specials_t INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN specials_o INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN surrenders_t INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN surrenders_o INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN wins_t INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN wins_o INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN score INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN melds INTEGER NOT NULL DEFAULT 0;

-- The table overlay (docs/stats.md): what a player saw of each opponent at poker tables, from the
-- hands they were both dealt: the hands, and the opponent's VPIP and PFR in them. Each finished
-- hand adds one row a pair of its players, in the transaction that finishes it.
CREATE TABLE opponent_stats (
    account_id  INTEGER NOT NULL REFERENCES accounts (id), -- the viewer
    opponent_id INTEGER NOT NULL REFERENCES accounts (id),
    hands       INTEGER NOT NULL,
    vpip_t      INTEGER NOT NULL,
    vpip_o      INTEGER NOT NULL,
    pfr_t       INTEGER NOT NULL,
    pfr_o       INTEGER NOT NULL,
    PRIMARY KEY (account_id, opponent_id)
) WITHOUT ROWID;

-- Search over a player's poker hands (docs/stats.md): a row a player a finished hand, with what a
-- search selects by; the hand's table and day are its own (hands). Filled with the statistics.
CREATE TABLE hand_search (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    hand_id    INTEGER NOT NULL REFERENCES hands (id),
    hole       TEXT NOT NULL,    -- two down cards as a class (AKs, AKo, QQ); '' with more or fewer
    position   INTEGER NOT NULL, -- as player_stats.position
    net        INTEGER NOT NULL,
    pot        INTEGER NOT NULL, -- every pot of the hand together, rake included
    flags      INTEGER NOT NULL, -- 1: went to showdown; 2: all in
    PRIMARY KEY (account_id, hand_id)
) WITHOUT ROWID;

-- Every hand is counted again by the background job (docs/stats.md): a poker hand's all-in EV,
-- its pairs of players and its search rows; the Chinese poker deals and leap rummy games counted
-- with none before.
DELETE FROM player_stats;
UPDATE hands SET stats_counted = 0 WHERE stats_counted = 1;
