-- Swiss events (issue 14): the round being played and when it started
-- (for its deadline), rating limits on entry, each entrant's rating when
-- seeded (or when entering late) and the round they joined, and the rounds
-- a player sat out with their points (the pairing-allocated bye, zero-point
-- byes of late entrants and withdrawn players).

ALTER TABLE tournaments ADD COLUMN round_days INTEGER;
ALTER TABLE tournaments ADD COLUMN min_rating INTEGER;
ALTER TABLE tournaments ADD COLUMN max_rating INTEGER;
ALTER TABLE tournaments ADD COLUMN current_round INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN round_started_at TEXT;

ALTER TABLE tournament_entries ADD COLUMN rating INTEGER;

CREATE TABLE tournament_byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    player_id     INTEGER NOT NULL REFERENCES players(id),
    -- 'full' (the pairing-allocated bye), 'half' or 'zero'.
    kind          TEXT NOT NULL CHECK (kind IN ('full', 'half', 'zero')),
    PRIMARY KEY (tournament_id, round, player_id)
);
