-- Hardening (issue 10).

-- A processed mail is known by its Message-ID together with its sender:
-- another sender's mail that reuses a Message-ID is another mail.
CREATE TABLE processed_by_sender_and_id (
    message_id   TEXT NOT NULL,
    sender       TEXT NOT NULL COLLATE NOCASE,
    processed_at TEXT NOT NULL,
    PRIMARY KEY (message_id, sender)
);
INSERT INTO processed_by_sender_and_id (message_id, sender, processed_at)
    SELECT message_id, sender, processed_at FROM processed;
DROP TABLE processed;
ALTER TABLE processed_by_sender_and_id RENAME TO processed;
CREATE INDEX processed_by_sender ON processed(sender, processed_at);
CREATE INDEX processed_by_time ON processed(processed_at);

-- Sent outbox mails are pruned by the time they were sent.
CREATE INDEX outbox_sent ON outbox(sent_at) WHERE sent_at IS NOT NULL;

-- Addresses a player named but that have not confirmed yet (a reply from
-- the address with the code). Several players may claim one address; the
-- one whose code comes back gets it, and a claim lapses after a while.
-- `mailed`: whether the confirmation mail went out for this claim.
CREATE TABLE address_claims (
    address    TEXT NOT NULL COLLATE NOCASE,
    player_id  INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    code       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    mailed     INTEGER NOT NULL,
    PRIMARY KEY (address, player_id)
);
CREATE INDEX address_claims_by_player ON address_claims(player_id);
CREATE INDEX address_claims_by_time ON address_claims(created_at);

-- Failed password logins per userid as written (known or not, so that
-- the answers never tell whether a userid exists), for the growing pause
-- after them.
CREATE TABLE login_failures (
    userid   TEXT PRIMARY KEY COLLATE NOCASE,
    failures INTEGER NOT NULL,
    last_at  TEXT NOT NULL
);

-- Mails per clock hour, from everybody (key '*') and per sender domain
-- (key '@domain'), for the rate ceilings.
CREATE TABLE mail_counts (
    key   TEXT NOT NULL COLLATE NOCASE,
    hour  TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (key, hour)
);
