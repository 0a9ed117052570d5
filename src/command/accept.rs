//! `accept <board> <userid> <password>`, or `accept` alone in a reply to a board
//! mail: accepts the opponent's standing draw or undo offer, or
//! the challenge waiting for the speaker.

board_word_command!(
    /// `accept <board> <userid> <password>`
    Accept,
    "accept"
);
