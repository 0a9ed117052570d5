-- Spectators (issue 29): what the web site must not show, or not yet.
-- `boards.private`: set by `challenge --private`; such a game (and all of
-- it) is on no page or feed. Event games are never private.
-- `tournaments.public_delay`: set by `tournament create --public-delay=N`;
-- the event's running games are shown N turns behind on the web site
-- (finished ones in full). 0 shows them as they stand.
ALTER TABLE boards ADD COLUMN private INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1));
ALTER TABLE tournaments ADD COLUMN public_delay INTEGER NOT NULL DEFAULT 0 CHECK (public_delay >= 0);
