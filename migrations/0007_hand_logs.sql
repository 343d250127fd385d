-- A finished hand's log as one row: every action and event in order, as JSON (with all its cards:
-- the history API filters them for the asker), one event a line. JSON text holds no raw newline,
-- so the lines are the events. One row a hand instead of one an event (hand_events, which this
-- replaces): a hand's end inserts one row instead of about forty, and the database holds less.
CREATE TABLE hand_logs (
    hand_id INTEGER PRIMARY KEY REFERENCES hands (id),
    body    TEXT NOT NULL
);
-- The logs written before, each hand's events joined in order of seq (0, 1, 2, ...). A hand at a
-- time, so that a large database needs no more memory than its longest log.
INSERT INTO hand_logs (hand_id, body)
SELECT h.id, (WITH RECURSIVE joined (seq, body) AS (
                  SELECT seq, body FROM hand_events WHERE hand_id = h.id AND seq = 0
                  UNION ALL
                  SELECT e.seq, j.body || char(10) || e.body
                  FROM joined j JOIN hand_events e ON e.hand_id = h.id AND e.seq = j.seq + 1)
              SELECT body FROM joined ORDER BY seq DESC LIMIT 1)
FROM hands h
WHERE EXISTS (SELECT 1 FROM hand_events e WHERE e.hand_id = h.id AND e.seq = 0);
DROP TABLE hand_events;
