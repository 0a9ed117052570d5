-- A bounce pause stops a player's clocks only for the vacation days the
-- player had left in the year when it began (issue 36); the days it lasts
-- are charged to that allowance when it ends. Pauses begun before this
-- keep the 30 days they were promised.
ALTER TABLE bounce_pauses ADD COLUMN allowed_days INTEGER NOT NULL DEFAULT 30;
