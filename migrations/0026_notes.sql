-- Private notes (issue 35): a player's notes on a board they play, read
-- by their writer alone (in their own board mails and `show`). `at_turn`
-- is the number of turns played when the note was written.
CREATE TABLE notes (
    id         INTEGER PRIMARY KEY,
    board      INTEGER NOT NULL REFERENCES boards(number),
    player_id  INTEGER NOT NULL REFERENCES players(id),
    at_turn    INTEGER NOT NULL,
    text       TEXT NOT NULL,
    written_at TEXT NOT NULL
);
CREATE INDEX notes_of_board ON notes (board, player_id);
