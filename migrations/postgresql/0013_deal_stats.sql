-- Player statistics, part 2: PostgreSQL's twin of ../0013_deal_stats.sql.
ALTER TABLE player_stats ADD COLUMN ev_net DOUBLE PRECISION NOT NULL DEFAULT 0; -- nets at the all-in equity
ALTER TABLE player_stats ADD COLUMN deal_units BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN scoops_t BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN scoops_o BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN specials_t BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN specials_o BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN surrenders_t BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN surrenders_o BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN wins_t BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN wins_o BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN score BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN melds BIGINT NOT NULL DEFAULT 0;

CREATE TABLE opponent_stats (
    account_id  BIGINT NOT NULL REFERENCES accounts (id),
    opponent_id BIGINT NOT NULL REFERENCES accounts (id),
    hands       BIGINT NOT NULL,
    vpip_t      BIGINT NOT NULL,
    vpip_o      BIGINT NOT NULL,
    pfr_t       BIGINT NOT NULL,
    pfr_o       BIGINT NOT NULL,
    PRIMARY KEY (account_id, opponent_id)
);

CREATE TABLE hand_search (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    hand_id    BIGINT NOT NULL REFERENCES hands (id),
    hole       TEXT NOT NULL,
    position   INTEGER NOT NULL,
    net        BIGINT NOT NULL,
    pot        BIGINT NOT NULL,
    flags      INTEGER NOT NULL,
    PRIMARY KEY (account_id, hand_id)
);

-- Every hand is counted again by the background job (docs/stats.md): a poker hand's all-in EV,
-- its pairs of players and its search rows; the Chinese poker deals and leap rummy games counted
-- with none before.
DELETE FROM player_stats;
UPDATE hands SET stats_counted = 0 WHERE stats_counted = 1;
