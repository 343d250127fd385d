-- One row that feltd rewrites to learn whether storage takes writes again after a failure (a full
-- disk): a read succeeds on a full disk, only a write tells.
CREATE TABLE storage_probe (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at TEXT NOT NULL
);
