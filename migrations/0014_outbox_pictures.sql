-- Board pictures are drawn when a mail is sent, not when it is queued
-- (issue 15): a queued mail keeps its complete MIME message, but each
-- inline picture's body is a placeholder, and `pictures` describes what
-- each picture shows (one line per picture, see `mail::pictures`). A row
-- without a description (NULL: every row queued before this migration,
-- and mails without pictures) is sent as it is stored.
ALTER TABLE outbox ADD COLUMN pictures TEXT;
