-- Correspondence clocks (issue 27): a game's time control, the log its
-- clock is replayed from, and its reminders. The arithmetic is the crate
-- pbem-clock's; see docs/design.md "Clocks".
--
-- `time_control`: the control as written after `--time=` (`3`, `10/50`,
-- `30+1/45`). NULL on every board made before clocks and on boards made
-- without `--time` or `--remind`: those read as `D` with their
-- `forfeit_days` for a turn and keep the reminders every `nag_days`, as
-- before, so no deadline moves.
-- `reminders`: as written after `--remind=` (`25%,1`, `none`); set with
-- `time_control`.
-- `reminded_at`: when the board last sent a reminder (at most one a day);
-- `nags_sent` counts the reminders of the turn in progress.
ALTER TABLE boards ADD COLUMN time_control TEXT;
ALTER TABLE boards ADD COLUMN reminders TEXT;
ALTER TABLE boards ADD COLUMN reminded_at TEXT;

-- An event's control and reminders, which its games take (the trigger
-- below, whatever format starts the game).
ALTER TABLE tournaments ADD COLUMN time_control TEXT;
ALTER TABLE tournaments ADD COLUMN reminders TEXT;

-- What a board with a time control stored, in order (`id`): its clock is
-- replayed from these. `start`: the first clock started (a challenge
-- accepted; without one the clock starts at the board's `created_at`);
-- `turn`: a turn stored; `takeback`: the last turn taken back (an
-- accepted undo); `extend`: `hundredths` of a day given to `side`
-- ('white' or 'black') by the `extend` command of `by_player`.
CREATE TABLE clock_events (
    id         INTEGER PRIMARY KEY,
    board      INTEGER NOT NULL REFERENCES boards(number),
    kind       TEXT NOT NULL CHECK (kind IN ('start', 'turn', 'takeback', 'extend')),
    at         TEXT NOT NULL,
    side       TEXT CHECK (side IN ('white', 'black')),
    hundredths INTEGER,
    by_player  INTEGER REFERENCES players(id)
);
CREATE INDEX clock_events_by_board ON clock_events(board, id);

-- An event's game takes the event's control when it joins the event.
CREATE TRIGGER event_games_take_the_event_control
AFTER INSERT ON tournament_games
WHEN (SELECT time_control FROM tournaments WHERE id = NEW.tournament_id) IS NOT NULL
BEGIN
    UPDATE boards
       SET time_control = (SELECT time_control FROM tournaments WHERE id = NEW.tournament_id),
           reminders = (SELECT reminders FROM tournaments WHERE id = NEW.tournament_id)
     WHERE number = NEW.board;
END;
