-- Chess960 (issue 39): the starting array a board's game begins from,
-- numbered 0 to 959 (518 is the usual array), and the one every game of a
-- Chess960 tournament begins from (given at `tournament create`, or drawn
-- when the event starts). NULL: the usual start.
ALTER TABLE boards ADD COLUMN start_position INTEGER;
ALTER TABLE tournaments ADD COLUMN start_position INTEGER;
