-- Knockout cups (issue 28). `tournaments.format` cannot take a new value
-- (its CHECK is fixed, and rebuilding the table would break the other
-- tables' references to it), so a cup keeps format 'rr' there and `cup`
-- says what it really is; the store reads `cup` first.
--
-- cup:         NULL (not a cup) or 'knockout'.
-- match_games: games of each mini-match (1 to 12).
-- tie:         what decides a tied match: 'playoff' or 'seed'.
-- A knockout's seeds are the entries' start numbers (by rating, then
-- userid); its bracket is computed again from its games each time.
ALTER TABLE tournaments ADD COLUMN cup TEXT CHECK (cup IS NULL OR cup = 'knockout');
ALTER TABLE tournaments ADD COLUMN match_games INTEGER
    CHECK (match_games IS NULL OR match_games BETWEEN 1 AND 12);
ALTER TABLE tournaments ADD COLUMN tie TEXT CHECK (tie IS NULL OR tie IN ('playoff', 'seed'));
