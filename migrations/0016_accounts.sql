-- Safety II (issue 24), accounts.

-- Wrong confirmation codes per sender address, for the growing pause
-- after them (as `login_failures` does for passwords). Kept for every
-- sender, whether or not a claim waits for it, so that the answers never
-- tell whether one does.
CREATE TABLE code_failures (
    address  TEXT PRIMARY KEY COLLATE NOCASE,
    failures INTEGER NOT NULL,
    last_at  TEXT NOT NULL
);
