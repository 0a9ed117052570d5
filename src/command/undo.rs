//! `undo <board> <userid> <password>`, or `undo` alone in a reply to a board
//! mail: asks the opponent to take back the last turn.

board_word_command!(
    /// `undo <board> <userid> <password>`
    Undo,
    "undo"
);
