-- Protocol 2's fairness: see ../0004_fairness.sql.
ALTER TABLE hands ADD COLUMN fairness TEXT;
