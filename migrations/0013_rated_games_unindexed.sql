-- Ratings (issue 12), two corrections.
--
-- Rated games without indexes of their own: each index made every row of
-- a rebuild an insert at a random place, or a sort afterwards (rebuilding
-- 200,000 rated games must take under 2 s). What they served is found
-- otherwise: whether a game ends before one already rated, from the
-- players' `ratings.last_played`; a player's last rated games, through
-- the indexes of `boards` by player (`store::ratings`).
DROP INDEX IF EXISTS rated_games_in_order;
DROP INDEX IF EXISTS rated_games_by_white;
DROP INDEX IF EXISTS rated_games_by_black;

-- A game an event scored as lost by forfeit without its being played
-- (the player withdrew) was never rated, but its board stayed `rated`
-- with a score, which a rebuild rates. Such boards are marked unrated
-- now, as `service::ending` marks them from now on. (A game played and
-- rated before the withdrawal rescored it as a forfeit keeps its rating.)
UPDATE boards SET rated = 0
WHERE rated
  AND number IN (SELECT board FROM tournament_games WHERE forfeit)
  AND number NOT IN (SELECT board FROM rated_games);
