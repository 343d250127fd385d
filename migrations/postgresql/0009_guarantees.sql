-- A tournament's guaranteed prize pool: PostgreSQL's twin of ../0009_guarantees.sql.
ALTER TABLE tournaments ADD COLUMN guarantee BIGINT NOT NULL DEFAULT 0 CHECK (guarantee >= 0);
ALTER TABLE tournaments ADD COLUMN guarantee_held BIGINT NOT NULL DEFAULT 0
    CHECK (guarantee_held >= 0);
