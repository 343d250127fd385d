-- Player statistics: PostgreSQL's twin of ../0012_player_stats.sql.
CREATE TABLE player_stats (
    account_id     BIGINT NOT NULL REFERENCES accounts (id),
    game           TEXT NOT NULL,    -- poker (Chinese poker and leap rummy: to come)
    variant        TEXT NOT NULL,    -- the hand's: holdem, omaha, stud, ... (a mixed game's)
    structure      TEXT NOT NULL,    -- no-limit, pot-limit, fixed-limit
    stake          BIGINT NOT NULL,  -- the unit of bb/100: the big blind, else the small bet
    position       INTEGER NOT NULL, -- -2 big blind, -1 small blind, 0 button, 1 cutoff, ...
    table_size     INTEGER NOT NULL, -- players dealt in
    day            TEXT NOT NULL,    -- the hand's end, UTC: YYYY-MM-DD
    tournament     INTEGER NOT NULL, -- 1: a tournament's hand (its chips are not a balance's)
    hands          BIGINT NOT NULL,
    net            BIGINT NOT NULL,
    rake           BIGINT NOT NULL,
    showdown_net   BIGINT NOT NULL,
    units          BIGINT NOT NULL,  -- the hands' stakes added up
    sum_bb         DOUBLE PRECISION NOT NULL,  -- each hand's net in its own stake, added up
    sum_bb_squared DOUBLE PRECISION NOT NULL,  -- and squared: the interval of bb/100
    vpip_t BIGINT NOT NULL DEFAULT 0,
    vpip_o BIGINT NOT NULL DEFAULT 0,
    pfr_t BIGINT NOT NULL DEFAULT 0,
    pfr_o BIGINT NOT NULL DEFAULT 0,
    three_bet_t BIGINT NOT NULL DEFAULT 0,
    three_bet_o BIGINT NOT NULL DEFAULT 0,
    fold_to_three_bet_t BIGINT NOT NULL DEFAULT 0,
    fold_to_three_bet_o BIGINT NOT NULL DEFAULT 0,
    four_bet_t BIGINT NOT NULL DEFAULT 0,
    four_bet_o BIGINT NOT NULL DEFAULT 0,
    steal_t BIGINT NOT NULL DEFAULT 0,
    steal_o BIGINT NOT NULL DEFAULT 0,
    fold_to_steal_t BIGINT NOT NULL DEFAULT 0,
    fold_to_steal_o BIGINT NOT NULL DEFAULT 0,
    cbet_flop_t BIGINT NOT NULL DEFAULT 0,
    cbet_flop_o BIGINT NOT NULL DEFAULT 0,
    cbet_turn_t BIGINT NOT NULL DEFAULT 0,
    cbet_turn_o BIGINT NOT NULL DEFAULT 0,
    cbet_river_t BIGINT NOT NULL DEFAULT 0,
    cbet_river_o BIGINT NOT NULL DEFAULT 0,
    fold_to_cbet_flop_t BIGINT NOT NULL DEFAULT 0,
    fold_to_cbet_flop_o BIGINT NOT NULL DEFAULT 0,
    fold_to_cbet_turn_t BIGINT NOT NULL DEFAULT 0,
    fold_to_cbet_turn_o BIGINT NOT NULL DEFAULT 0,
    fold_to_cbet_river_t BIGINT NOT NULL DEFAULT 0,
    fold_to_cbet_river_o BIGINT NOT NULL DEFAULT 0,
    check_raise_flop_t BIGINT NOT NULL DEFAULT 0,
    check_raise_flop_o BIGINT NOT NULL DEFAULT 0,
    check_raise_turn_t BIGINT NOT NULL DEFAULT 0,
    check_raise_turn_o BIGINT NOT NULL DEFAULT 0,
    check_raise_river_t BIGINT NOT NULL DEFAULT 0,
    check_raise_river_o BIGINT NOT NULL DEFAULT 0,
    af_flop_t BIGINT NOT NULL DEFAULT 0,
    af_flop_o BIGINT NOT NULL DEFAULT 0,
    af_turn_t BIGINT NOT NULL DEFAULT 0,
    af_turn_o BIGINT NOT NULL DEFAULT 0,
    af_river_t BIGINT NOT NULL DEFAULT 0,
    af_river_o BIGINT NOT NULL DEFAULT 0,
    afq_flop_t BIGINT NOT NULL DEFAULT 0,
    afq_flop_o BIGINT NOT NULL DEFAULT 0,
    afq_turn_t BIGINT NOT NULL DEFAULT 0,
    afq_turn_o BIGINT NOT NULL DEFAULT 0,
    afq_river_t BIGINT NOT NULL DEFAULT 0,
    afq_river_o BIGINT NOT NULL DEFAULT 0,
    wtsd_t BIGINT NOT NULL DEFAULT 0,
    wtsd_o BIGINT NOT NULL DEFAULT 0,
    wsd_t BIGINT NOT NULL DEFAULT 0,
    wsd_o BIGINT NOT NULL DEFAULT 0,
    wwsf_t BIGINT NOT NULL DEFAULT 0,
    wwsf_o BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, game, variant, structure, stake, position, table_size, day, tournament)
);

ALTER TABLE hands ADD COLUMN stats_counted SMALLINT NOT NULL DEFAULT 0 CHECK (stats_counted IN (0, 1));
CREATE INDEX hands_to_count ON hands (id) WHERE stats_counted = 0 AND status = 'finished';
