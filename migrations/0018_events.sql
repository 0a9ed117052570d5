-- Issue 24, the events slice.
--
-- Failed password logins per userid as written and per where they came
-- from: one of the player's confirmed addresses (that address), or
-- anywhere else ('*', every other sender together). A stranger's wrong
-- guesses then pause logins from strangers only, never from the player's
-- own addresses.
CREATE TABLE login_failures_by_sender (
    userid   TEXT NOT NULL COLLATE NOCASE,
    sender   TEXT NOT NULL COLLATE NOCASE,
    failures INTEGER NOT NULL,
    last_at  TEXT NOT NULL,
    PRIMARY KEY (userid, sender)
);
INSERT INTO login_failures_by_sender (userid, sender, failures, last_at)
    SELECT userid, '*', failures, last_at FROM login_failures;
DROP TABLE login_failures;
ALTER TABLE login_failures_by_sender RENAME TO login_failures;

-- Each director's broadcast, for the ceiling of broadcasts per event and
-- day.
CREATE TABLE tournament_broadcasts (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    sent_at       TEXT NOT NULL
);
CREATE INDEX tournament_broadcasts_by_event ON tournament_broadcasts(tournament_id, sent_at);

-- Live events by director (the ceiling of events per director).
CREATE INDEX tournaments_by_director ON tournaments(director_id, status);
