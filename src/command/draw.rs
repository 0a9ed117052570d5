//! `draw <board> <userid> <password>`, or `draw` alone in a reply to a board
//! mail: offers a draw, accepts the opponent's offer, or claims one (threefold
//! repetition, the 50-move rule).

board_word_command!(
    /// `draw <board> <userid> <password>`
    Draw,
    "draw"
);
