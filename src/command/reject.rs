//! `reject <board> <userid> <password>`, or `reject` alone in a reply to a board
//! mail: rejects the opponent's standing draw or undo offer.

board_word_command!(
    /// `reject <board> <userid> <password>`
    Reject,
    "reject"
);
