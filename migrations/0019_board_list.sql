-- `set board list` (issue 29): a board style listing each side's pieces,
-- for screen readers and braille displays. SQLite cannot change a CHECK
-- constraint, so the preferences table is made again with 'list' allowed
-- and its rows copied over; nothing refers to it.
CREATE TABLE preferences_new (
    player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    board     TEXT NOT NULL DEFAULT 'html' CHECK (board IN ('ascii', 'compact', 'html', 'list')),
    mail      TEXT NOT NULL DEFAULT 'every' CHECK (mail IN ('every', 'digest')),
    pgn       INTEGER NOT NULL DEFAULT 1 CHECK (pgn IN (0, 1))
);
INSERT INTO preferences_new (player_id, board, mail, pgn)
    SELECT player_id, board, mail, pgn FROM preferences;
DROP TABLE preferences;
ALTER TABLE preferences_new RENAME TO preferences;
