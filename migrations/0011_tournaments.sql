-- Tournaments (issue 13): events run by a director, their entries, and
-- their games, each on a board of its own. The pairings are stored per
-- round (a round robin stores all its rounds at the start; a Swiss adds
-- each round as it is paired).

CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE COLLATE NOCASE,
    variant       TEXT NOT NULL,
    director_id   INTEGER NOT NULL REFERENCES players(id),
    -- 'rr', 'drr' (double round robin) or 'swiss'.
    format        TEXT NOT NULL CHECK (format IN ('rr', 'drr', 'swiss')),
    -- Swiss: rounds in all.
    rounds        INTEGER,
    days_per_turn INTEGER,
    nag_days      INTEGER NOT NULL,
    forfeit_days  INTEGER NOT NULL,
    -- Vacation days each player may use on the event's boards (NULL: only
    -- the player's yearly allowance applies).
    vacation_days INTEGER,
    max_entrants  INTEGER NOT NULL,
    rated         INTEGER NOT NULL,
    closes_at     TEXT,
    invite_only   INTEGER NOT NULL,
    -- Tiebreak codes in order, comma separated (`sb,wins,de`).
    tiebreaks     TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished')),
    created_at    TEXT NOT NULL,
    started_at    TEXT,
    finished_at   TEXT
);

CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    -- Drawn by lot at the start (Swiss: by rating).
    start_number  INTEGER,
    entered_at    TEXT NOT NULL,
    withdrawn_at  TEXT,
    PRIMARY KEY (tournament_id, player_id)
);

CREATE TABLE tournament_invites (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (tournament_id, player_id)
);

CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    white_id      INTEGER NOT NULL REFERENCES players(id),
    black_id      INTEGER NOT NULL REFERENCES players(id),
    board         INTEGER NOT NULL UNIQUE REFERENCES boards(number),
    -- NULL while the game is on: '1-0', '0-1', '1/2-1/2', '0-0' (both
    -- forfeited) or '-' (cancelled).
    result        TEXT,
    -- Whether the result was scored without the game being played out.
    forfeit       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tournament_games_by_event ON tournament_games(tournament_id, round);
