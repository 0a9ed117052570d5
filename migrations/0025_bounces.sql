-- Bounces (issue 30): what pbem learnt of its mails that could not be
-- delivered, and the clocks that stop for it.

-- The delivery trouble of an address; no row: it works as far as pbem
-- knows. `failing` once a permanent bounce, or three transient ones in a
-- row, came back for mail to it; `transient` counts the transient bounces
-- in a row (each sent mail once: `last_outbox_id` is the mail last
-- counted); `since` is when the trouble began, `last_at` the newest
-- bounce, `diagnostic` what the mail system last said.
CREATE TABLE address_health (
    address        TEXT PRIMARY KEY COLLATE NOCASE,
    failing        INTEGER NOT NULL DEFAULT 0 CHECK (failing IN (0, 1)),
    transient      INTEGER NOT NULL DEFAULT 0,
    last_outbox_id INTEGER,
    since          TEXT NOT NULL,
    last_at        TEXT NOT NULL,
    diagnostic     TEXT
);

-- The times every address of a player was failing: that player's clocks
-- stop (up to 30 days per game in all, reckoned from these rows: see
-- store::deadlines::honoured_vacations). `ends_at` is NULL while it lasts;
-- the opponents and directors were told when the row began.
CREATE TABLE bounce_pauses (
    id        INTEGER PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    starts_at TEXT NOT NULL,
    ends_at   TEXT
);
CREATE INDEX bounce_pauses_by_player ON bounce_pauses(player_id, starts_at);

-- Why an unsent mail waits (the transport refused or put it off), for
-- `pbem status`: the last error, how often it was tried, and when it is
-- tried again.
ALTER TABLE outbox ADD COLUMN last_error TEXT;
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN retry_at TEXT;
