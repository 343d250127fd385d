-- Player statistics (docs/stats.md): each finished hand adds every player's line to the row of
-- their game, variant, structure, stake, position, table size, day and kind, in the transaction
-- that finishes the hand. A selection is answered by adding rows up. Each statistic is two
-- columns: _t, the times taken, and _o, the opportunities.
CREATE TABLE player_stats (
    account_id     INTEGER NOT NULL REFERENCES accounts (id),
    game           TEXT NOT NULL,    -- poker (Chinese poker and leap rummy: to come)
    variant        TEXT NOT NULL,    -- the hand's: holdem, omaha, stud, ... (a mixed game's)
    structure      TEXT NOT NULL,    -- no-limit, pot-limit, fixed-limit
    stake          INTEGER NOT NULL,  -- the unit of bb/100: the big blind, else the small bet
    position       INTEGER NOT NULL, -- -2 big blind, -1 small blind, 0 button, 1 cutoff, ...
    table_size     INTEGER NOT NULL, -- players dealt in
    day            TEXT NOT NULL,    -- the hand's end, UTC: YYYY-MM-DD
    tournament     INTEGER NOT NULL, -- 1: a tournament's hand (its chips are not a balance's)
    hands          INTEGER NOT NULL,
    net            INTEGER NOT NULL,
    rake           INTEGER NOT NULL,
    showdown_net   INTEGER NOT NULL,
    units          INTEGER NOT NULL,  -- the hands' stakes added up
    sum_bb         REAL NOT NULL,  -- each hand's net in its own stake, added up
    sum_bb_squared REAL NOT NULL,  -- and squared: the interval of bb/100
    vpip_t INTEGER NOT NULL DEFAULT 0,
    vpip_o INTEGER NOT NULL DEFAULT 0,
    pfr_t INTEGER NOT NULL DEFAULT 0,
    pfr_o INTEGER NOT NULL DEFAULT 0,
    three_bet_t INTEGER NOT NULL DEFAULT 0,
    three_bet_o INTEGER NOT NULL DEFAULT 0,
    fold_to_three_bet_t INTEGER NOT NULL DEFAULT 0,
    fold_to_three_bet_o INTEGER NOT NULL DEFAULT 0,
    four_bet_t INTEGER NOT NULL DEFAULT 0,
    four_bet_o INTEGER NOT NULL DEFAULT 0,
    steal_t INTEGER NOT NULL DEFAULT 0,
    steal_o INTEGER NOT NULL DEFAULT 0,
    fold_to_steal_t INTEGER NOT NULL DEFAULT 0,
    fold_to_steal_o INTEGER NOT NULL DEFAULT 0,
    cbet_flop_t INTEGER NOT NULL DEFAULT 0,
    cbet_flop_o INTEGER NOT NULL DEFAULT 0,
    cbet_turn_t INTEGER NOT NULL DEFAULT 0,
    cbet_turn_o INTEGER NOT NULL DEFAULT 0,
    cbet_river_t INTEGER NOT NULL DEFAULT 0,
    cbet_river_o INTEGER NOT NULL DEFAULT 0,
    fold_to_cbet_flop_t INTEGER NOT NULL DEFAULT 0,
    fold_to_cbet_flop_o INTEGER NOT NULL DEFAULT 0,
    fold_to_cbet_turn_t INTEGER NOT NULL DEFAULT 0,
    fold_to_cbet_turn_o INTEGER NOT NULL DEFAULT 0,
    fold_to_cbet_river_t INTEGER NOT NULL DEFAULT 0,
    fold_to_cbet_river_o INTEGER NOT NULL DEFAULT 0,
    check_raise_flop_t INTEGER NOT NULL DEFAULT 0,
    check_raise_flop_o INTEGER NOT NULL DEFAULT 0,
    check_raise_turn_t INTEGER NOT NULL DEFAULT 0,
    check_raise_turn_o INTEGER NOT NULL DEFAULT 0,
    check_raise_river_t INTEGER NOT NULL DEFAULT 0,
    check_raise_river_o INTEGER NOT NULL DEFAULT 0,
    af_flop_t INTEGER NOT NULL DEFAULT 0,
    af_flop_o INTEGER NOT NULL DEFAULT 0,
    af_turn_t INTEGER NOT NULL DEFAULT 0,
    af_turn_o INTEGER NOT NULL DEFAULT 0,
    af_river_t INTEGER NOT NULL DEFAULT 0,
    af_river_o INTEGER NOT NULL DEFAULT 0,
    afq_flop_t INTEGER NOT NULL DEFAULT 0,
    afq_flop_o INTEGER NOT NULL DEFAULT 0,
    afq_turn_t INTEGER NOT NULL DEFAULT 0,
    afq_turn_o INTEGER NOT NULL DEFAULT 0,
    afq_river_t INTEGER NOT NULL DEFAULT 0,
    afq_river_o INTEGER NOT NULL DEFAULT 0,
    wtsd_t INTEGER NOT NULL DEFAULT 0,
    wtsd_o INTEGER NOT NULL DEFAULT 0,
    wsd_t INTEGER NOT NULL DEFAULT 0,
    wsd_o INTEGER NOT NULL DEFAULT 0,
    wwsf_t INTEGER NOT NULL DEFAULT 0,
    wwsf_o INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, game, variant, structure, stake, position, table_size, day, tournament)
) WITHOUT ROWID; -- the key is the table's own order: no second copy of it in an index

-- Hands counted into player_stats: every hand finished from now on, as it finishes. Those finished
-- before are counted by a background job (docs/stats.md), found through the partial index.
ALTER TABLE hands ADD COLUMN stats_counted INTEGER NOT NULL DEFAULT 0 CHECK (stats_counted IN (0, 1));
CREATE INDEX hands_to_count ON hands (id) WHERE stats_counted = 0 AND status = 'finished';
