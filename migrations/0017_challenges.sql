-- Challenges wait for the challenged player (issue 24, finding 4).
--
-- `challenged_id`: the player a challenge waits for. Set when `challenge`
-- creates the board, cleared when that player accepts (`accept`, or their
-- first turn); it stays set on a board that ended without being accepted
-- (declined or lapsed). NULL for tournament games and older boards.
-- While it is set and the game is on, no clock runs on the board, and the
-- challenged player gets a board mail only for a position not shown to
-- them yet (`challenged_shown`: the number of turns their last board mail
-- of the board showed), never for chat or offers.
-- `challenge_mail`: the Message-ID of the mail whose `challenge` created
-- the board, so that the same challenge written twice in one mail makes
-- one board.
ALTER TABLE boards ADD COLUMN challenged_id INTEGER REFERENCES players(id);
ALTER TABLE boards ADD COLUMN challenged_shown INTEGER NOT NULL DEFAULT 0;
ALTER TABLE boards ADD COLUMN challenge_mail TEXT;
CREATE INDEX boards_challenges_waiting ON boards(challenged_id)
    WHERE challenged_id IS NOT NULL AND result IS NULL;
