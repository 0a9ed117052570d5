-- The mails pbem sent that a player may answer by replying (board mails,
-- error mails, reminders, notices carrying a reply token): the position
-- each one showed, so that a reply answers that position and no later
-- one; and digests of its lines, so that no line of it is ever read as the
-- player's words. The first row of a board and address is the root that
-- every later mail of that board's conversation references.
CREATE TABLE sent_mails (
    message_id TEXT PRIMARY KEY,
    board      INTEGER NOT NULL,
    player_id  INTEGER,
    address    TEXT NOT NULL COLLATE NOCASE,
    -- The number of the turn being played when the mail was sent.
    turn_seq   INTEGER NOT NULL,
    -- 8-byte digests of the mail's lines (mail::reply::Known).
    lines      BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX sent_mails_by_board ON sent_mails(board, address);
