-- Knockout cups (issue 28). `tournaments.format` cannot take a new value
-- (its CHECK is fixed, and rebuilding the table would break the other
-- tables' references to it), so a cup keeps format 'rr' there and `cup`
-- says what it really is; the store reads `cup` first.
--
-- cup:         NULL (not a cup), 'knockout' or 'groups' (groups, then a
--              final stage).
-- match_games: games of each knockout mini-match (1 to 12), also of a
--              knockout final stage.
-- tie:         what decides a tied match: 'playoff' or 'seed'.
-- A knockout's seeds are the entries' start numbers (by rating, then
-- userid); its bracket is computed again from its games each time.
ALTER TABLE tournaments ADD COLUMN cup TEXT CHECK (cup IS NULL OR cup IN ('knockout', 'groups'));
ALTER TABLE tournaments ADD COLUMN match_games INTEGER
    CHECK (match_games IS NULL OR match_games BETWEEN 1 AND 12);
ALTER TABLE tournaments ADD COLUMN tie TEXT CHECK (tie IS NULL OR tie IN ('playoff', 'seed'));

-- Groups: how many (2 to 16), how many of each go on (at least 1), whether
-- the groups play twice, and the final stage ('rr' or 'knockout'). The
-- groups are the seeds (start numbers) in snake order, computed again
-- each time; the final stage's games come after the groups' rounds
-- (their round numbers go on from the groups' last).
ALTER TABLE tournaments ADD COLUMN groups INTEGER CHECK (groups IS NULL OR groups BETWEEN 2 AND 16);
ALTER TABLE tournaments ADD COLUMN advance INTEGER CHECK (advance IS NULL OR advance >= 1);
ALTER TABLE tournaments ADD COLUMN groups_double INTEGER;
ALTER TABLE tournaments ADD COLUMN final_stage TEXT
    CHECK (final_stage IS NULL OR final_stage IN ('rr', 'knockout'));

-- The players who went on to the final stage, with their seed in it
-- (group winners first), fixed when the last group game ended: later
-- withdrawals or rulings do not reseed a stage already started.
CREATE TABLE tournament_finalists (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    seed          INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player_id),
    UNIQUE (tournament_id, seed)
);
