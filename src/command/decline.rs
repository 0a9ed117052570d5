//! `decline <board> <userid> <password>`, or `decline` alone in a reply to a board
//! mail: declines a challenge before making a move.

board_word_command!(
    /// `decline <board> <userid> <password>`
    Decline,
    "decline"
);
