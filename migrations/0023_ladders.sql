-- Ladders (issue 28): a standing order of players, each of whom may
-- challenge those a few places above; a challenger who wins takes the
-- loser's place. The rules are in crates/pbem-tournament (`ladder`).

CREATE TABLE ladders (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE COLLATE NOCASE,
    variant       TEXT NOT NULL,
    owner_id      INTEGER NOT NULL REFERENCES players(id),
    -- Places above oneself a player may challenge.
    reach         INTEGER NOT NULL,
    -- Open ladder games a player may have, as challenger or challenged.
    max_open      INTEGER NOT NULL,
    -- Days each turn of a ladder game may take (NULL: the server's default
    -- loss-on-time days, as a challenge without --days).
    days_per_turn INTEGER,
    -- The --time control as written back by pbem-clock (`3`, `10/50`,
    -- `30+1/45`); NULL without one.
    time_control  TEXT,
    created_at    TEXT NOT NULL
);
CREATE INDEX ladders_by_owner ON ladders(owner_id);

-- The order, place 1 the top. Rewritten whole when it changes.
CREATE TABLE ladder_rungs (
    ladder_id INTEGER NOT NULL REFERENCES ladders(id),
    place     INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (ladder_id, player_id)
);
CREATE INDEX ladder_rungs_by_place ON ladder_rungs(ladder_id, place);

-- Each ladder game, on a board of its own.
CREATE TABLE ladder_games (
    board         INTEGER PRIMARY KEY REFERENCES boards(number),
    ladder_id     INTEGER NOT NULL REFERENCES ladders(id),
    challenger_id INTEGER NOT NULL REFERENCES players(id),
    defender_id   INTEGER NOT NULL REFERENCES players(id),
    -- NULL while the ladder waits for the result; then the board's score
    -- ('1-0', '0-1', '1/2-1/2', '-'), or 'left' when a player left the
    -- ladder first (the game plays on; its result no longer counts).
    outcome       TEXT
);
CREATE INDEX ladder_games_open ON ladder_games(ladder_id, outcome);
