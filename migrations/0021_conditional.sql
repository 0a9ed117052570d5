-- Conditional moves (issue 26): one player's "if they play X, I answer Y"
-- lines on one board, in the stored text form of pbem-conditional. A tree
-- is relative to the position after `at_turn` turns (the owner's opponent
-- to move); the service drops it when that is no longer the position it
-- can follow, and when the game ends.
CREATE TABLE conditional_lines (
    board      INTEGER NOT NULL REFERENCES boards(number),
    player_id  INTEGER NOT NULL REFERENCES players(id),
    at_turn    INTEGER NOT NULL,
    stored     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (board, player_id)
);
