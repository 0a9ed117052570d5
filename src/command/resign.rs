//! `resign <board> <userid> <password>`, or `resign` alone in a reply to a board
//! mail: gives up the game.

board_word_command!(
    /// `resign <board> <userid> <password>`
    Resign,
    "resign"
);
