-- One row that feltd rewrites to learn whether storage takes writes again after a failure.
CREATE TABLE storage_probe (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at TIMESTAMPTZ NOT NULL
);
