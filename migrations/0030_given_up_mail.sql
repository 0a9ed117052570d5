-- Mail given up (issue 36): a mail whose every recipient was refused for
-- good at RCPT TO, or marked failing, with no working address of the
-- player to send it to instead. It is no longer sent, and `pbem status`
-- lists it until it is pruned with the sent mails.
ALTER TABLE outbox ADD COLUMN given_up_at TEXT;
