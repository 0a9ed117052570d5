-- A queued mail's message lives apart from its outbox row (issue 15):
-- marking a mail sent rewrites the whole row, and with its message of
-- several kilobytes (overflow pages) in the row, every sent mark wrote the
-- message again into the write-ahead log. The outbox row stays small;
-- deleting it deletes its message.
CREATE TABLE outbox_message (
    id      INTEGER PRIMARY KEY REFERENCES outbox(id) ON DELETE CASCADE,
    message BLOB NOT NULL
);
INSERT INTO outbox_message (id, message) SELECT id, message FROM outbox;
ALTER TABLE outbox DROP COLUMN message;
