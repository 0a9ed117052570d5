-- pbem's first schema. Times are RFC 3339 UTC strings.

-- Server-wide values, such as the secret behind reply tokens.
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE players (
    id            INTEGER PRIMARY KEY,
    userid        TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    -- Clocks stop until this time (the `vacation` command).
    vacation_until     TEXT,
    -- Vacation days used in `vacation_year`, against the yearly allowance.
    vacation_days_used INTEGER NOT NULL DEFAULT 0,
    vacation_year      INTEGER NOT NULL DEFAULT 0
);

-- The mail addresses a player plays from; the first is where mail goes.
CREATE TABLE addresses (
    address   TEXT PRIMARY KEY COLLATE NOCASE,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    position  INTEGER NOT NULL
);
CREATE INDEX addresses_by_player ON addresses(player_id, position);

-- Boards are numbered globally from 101.
CREATE TABLE boards (
    number        INTEGER PRIMARY KEY CHECK (number >= 101),
    variant       TEXT NOT NULL,
    white_id      INTEGER NOT NULL REFERENCES players(id),
    black_id      INTEGER NOT NULL REFERENCES players(id),
    rated         INTEGER NOT NULL DEFAULT 1,
    -- Deadlines in days: per-turn allowance (optional), first and repeated
    -- reminder, loss on time.
    days_per_turn INTEGER,
    nag_days      INTEGER NOT NULL,
    forfeit_days  INTEGER NOT NULL,
    created_at    TEXT NOT NULL,
    last_turn_at  TEXT NOT NULL,
    -- NULL while the game is on: '1-0', '0-1', '1/2-1/2', or '-' (declined).
    result        TEXT,
    end_reason    TEXT,
    finished_at   TEXT
);
CREATE INDEX boards_by_white ON boards(white_id);
CREATE INDEX boards_by_black ON boards(black_id);

-- Every turn as played, in canonical notation (`Nf3,Bb5+`).
CREATE TABLE turns (
    board      INTEGER NOT NULL REFERENCES boards(number),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    text       TEXT NOT NULL,
    player_id  INTEGER NOT NULL REFERENCES players(id),
    played_at  TEXT NOT NULL,
    message_id TEXT,
    PRIMARY KEY (board, seq)
);

-- Comments and chat shown under the board; `after_seq` is the number of
-- turns played when it was written.
CREATE TABLE comments (
    id         INTEGER PRIMARY KEY,
    board      INTEGER NOT NULL REFERENCES boards(number),
    player_id  INTEGER REFERENCES players(id),
    after_seq  INTEGER NOT NULL,
    text       TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX comments_by_board ON comments(board, after_seq);

-- Standing draw and undo offers, at most one of each kind per board.
CREATE TABLE offers (
    board      INTEGER NOT NULL REFERENCES boards(number),
    kind       TEXT NOT NULL CHECK (kind IN ('draw', 'undo')),
    by_player  INTEGER NOT NULL REFERENCES players(id),
    at_seq     INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (board, kind)
);

-- One turn per player, played after the opponent's next turn if legal then.
CREATE TABLE queued_turns (
    board      INTEGER NOT NULL REFERENCES boards(number),
    player_id  INTEGER NOT NULL REFERENCES players(id),
    text       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (board, player_id)
);

-- Addresses that receive every board mail of a board.
CREATE TABLE observers (
    board   INTEGER NOT NULL REFERENCES boards(number),
    address TEXT NOT NULL COLLATE NOCASE,
    PRIMARY KEY (board, address)
);

-- Every inbound mail handled, by Message-ID: nothing is processed twice.
CREATE TABLE processed (
    message_id   TEXT PRIMARY KEY,
    sender       TEXT NOT NULL COLLATE NOCASE,
    processed_at TEXT NOT NULL
);
CREATE INDEX processed_by_sender ON processed(sender, processed_at);

-- Mails to send, as complete RFC 5322 messages; `sent_at` is set once the
-- outbound transport accepted the mail.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    recipients TEXT NOT NULL,
    message    BLOB NOT NULL,
    created_at TEXT NOT NULL,
    sent_at    TEXT
);
CREATE INDEX outbox_unsent ON outbox(id) WHERE sent_at IS NULL;
