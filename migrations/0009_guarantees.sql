-- A tournament's guaranteed prize pool. The creator's chips for it leave their balance when the
-- tournament is created (ledger reason tournament_guarantee) and stay with it, in
-- guarantee_held: the whole guarantee while it registers (a cancelled tournament gives it back,
-- tournament_guarantee_back), then at the start what the entries' buy-ins do not cover (the
-- overlay): the rest comes back to the creator then (tournament_guarantee_back). The pool is the
-- buy-ins plus the overlay.
ALTER TABLE tournaments ADD COLUMN guarantee INTEGER NOT NULL DEFAULT 0 CHECK (guarantee >= 0);
ALTER TABLE tournaments ADD COLUMN guarantee_held INTEGER NOT NULL DEFAULT 0
    CHECK (guarantee_held >= 0);
