-- The nodes that share this database: see ../0006_nodes.sql. Hand ids come from a sequence in
-- blocks of 1,000, so that every node deals without asking and no two nodes use one id.
CREATE TABLE nodes (
    id          TEXT PRIMARY KEY,
    url         TEXT NOT NULL DEFAULT '',
    incarnation TEXT NOT NULL,
    lease_until TIMESTAMPTZ NOT NULL
);
ALTER TABLE tables ADD COLUMN node_id TEXT;
CREATE INDEX tables_open_by_node ON tables (node_id) WHERE closed_at IS NULL;
CREATE SEQUENCE hand_ids INCREMENT BY 1000;
SELECT setval('hand_ids', (SELECT COALESCE(MAX(id), 0) + 1 FROM hands), false);
