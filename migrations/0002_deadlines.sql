-- Deadlines: who is to move on each board (so the deadline sweep needs no
-- game replay), how many reminders went out for the current turn, and the
-- players' vacations as intervals (the clock of a board stops while the
-- player to move is away).

ALTER TABLE boards ADD COLUMN to_move_id INTEGER REFERENCES players(id);
ALTER TABLE boards ADD COLUMN nags_sent INTEGER NOT NULL DEFAULT 0;
CREATE INDEX boards_active ON boards(number) WHERE result IS NULL;

CREATE TABLE vacations (
    player_id INTEGER NOT NULL REFERENCES players(id),
    starts_at TEXT NOT NULL,
    ends_at   TEXT NOT NULL
);
CREATE INDEX vacations_by_player ON vacations(player_id, ends_at);
