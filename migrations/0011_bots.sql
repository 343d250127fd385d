-- The server's bots (docs/bots.md, "Bots at a table"): accounts of their own, marked, never
-- signed in to from outside. Their chips are granted by the server as ledger rows of reason
-- grant, the bots' balances together at most feltd --bot-bank.
ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1));
CREATE INDEX accounts_bots ON accounts (bot) WHERE bot = 1;
