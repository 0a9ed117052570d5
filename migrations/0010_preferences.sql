-- Each player's mail preferences (`set`, `settings`): how board mails show
-- the board (ascii: the text board alone; compact: the one-line-per-rank
-- text board; html: the text board plus an HTML part with a picture, the
-- default), whether board mails come for every turn or only the daily
-- digest and reminders, and whether a finished game's PGN is attached.
-- A player without a row has the defaults.
CREATE TABLE preferences (
    player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    board     TEXT NOT NULL DEFAULT 'html' CHECK (board IN ('ascii', 'compact', 'html')),
    mail      TEXT NOT NULL DEFAULT 'every' CHECK (mail IN ('every', 'digest')),
    pgn       INTEGER NOT NULL DEFAULT 1 CHECK (pgn IN (0, 1))
);
