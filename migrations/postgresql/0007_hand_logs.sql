-- A finished hand's log as one row: see ../0007_hand_logs.sql.
CREATE TABLE hand_logs (
    hand_id BIGINT PRIMARY KEY REFERENCES hands (id),
    body    TEXT NOT NULL
);
INSERT INTO hand_logs (hand_id, body)
SELECT hand_id, string_agg(body, E'\n' ORDER BY seq) FROM hand_events GROUP BY hand_id;
DROP TABLE hand_events;
