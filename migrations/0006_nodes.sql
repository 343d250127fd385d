-- The nodes that share this database, each with a lease on the tables it hosts (node_id), renewed
-- while it runs: once a node's lease lapses, another node (or its own restart) recovers its
-- tables as a restart does, and removes its row in the same transaction, so that this happens
-- once (docs/operations.md). PostgreSQL only: one SQLite file has one node, which leaves this
-- table empty and node_id NULL.
CREATE TABLE nodes (
    id          TEXT PRIMARY KEY,
    url         TEXT NOT NULL DEFAULT '',       -- how clients reach it (--node-url)
    incarnation TEXT NOT NULL,                  -- random, new at every start
    lease_until TEXT NOT NULL
);
ALTER TABLE tables ADD COLUMN node_id TEXT;     -- the node hosting it while it is open
