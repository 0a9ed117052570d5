-- Ratings (issue 12): one Glicko-2 rating per player and variant, and
-- what each rated game did to its two players' ratings. Both are derived
-- from the rated results in `boards` and can be rebuilt from them
-- (`pbem ratings --rebuild`). Figures are REAL (IEEE doubles, stored
-- exactly); times are Unix nanoseconds, so that they sort as they happened.

CREATE TABLE ratings (
    player_id   INTEGER NOT NULL REFERENCES players(id),
    variant     TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    -- When the player's last rated game of the variant ended.
    last_played INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE INDEX ratings_by_variant ON ratings(variant, rating);

-- One row per rated game, in the order the games are rated: by the time
-- they ended, then by board number. (A large rebuild drops and recreates
-- these indexes: keep store::ratings' copies of them alike.)
CREATE TABLE rated_games (
    board        INTEGER PRIMARY KEY REFERENCES boards(number),
    variant      TEXT NOT NULL,
    finished     INTEGER NOT NULL,
    white_id     INTEGER NOT NULL REFERENCES players(id),
    black_id     INTEGER NOT NULL REFERENCES players(id),
    white_before REAL NOT NULL,
    white_after  REAL NOT NULL,
    black_before REAL NOT NULL,
    black_after  REAL NOT NULL
);
CREATE INDEX rated_games_in_order ON rated_games(variant, finished, board);
CREATE INDEX rated_games_by_white ON rated_games(white_id, finished);
CREATE INDEX rated_games_by_black ON rated_games(black_id, finished);
