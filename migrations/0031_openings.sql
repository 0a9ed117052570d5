-- Thematic starts (issue 39): the opening a board's game starts after, and
-- the one every game of a thematic event starts after, kept whole (ECO
-- code, name and moves in SAN, separated by tabs; the moves by spaces) so
-- that an update of the openings table changes no game already made.
-- NULL: no opening.
ALTER TABLE boards ADD COLUMN opening TEXT;
ALTER TABLE tournaments ADD COLUMN opening TEXT;
