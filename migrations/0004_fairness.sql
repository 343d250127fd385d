-- Protocol 2's fairness (docs/protocol.md, "Fairness"): a salt per card position and who saw each
-- position, so that a finished hand's reveal, live or from the history, opens only the cards its
-- reader saw or everyone saw. JSON: {"salts", "seed_salt", "seen", "seed_used"}. NULL for a hand
-- committed to under protocol 1 (one salt over the whole deck, kept in `salt`): its deck is never
-- sent, since it would show mucked cards.
ALTER TABLE hands ADD COLUMN fairness TEXT;
