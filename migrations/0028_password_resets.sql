-- A mail in the outbox that may not go before a time (issue 36): the
-- board mails of a game action made while pbem's total ceiling on the
-- mail it sends was used up wait for the next hour. NULL: at once.
ALTER TABLE outbox ADD COLUMN send_after TEXT;

-- Password resets by mail (issue 36): each reset mail's one-time reply
-- address names its row; `used_at` is set when a reply set the password.
-- At most one a player a day, whoever asks.
CREATE TABLE password_resets (
    id         INTEGER PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players(id),
    created_at TEXT NOT NULL,
    used_at    TEXT
);
CREATE INDEX password_resets_of_player ON password_resets (player_id, created_at);
