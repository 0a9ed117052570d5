//! What players read: the ASCII board, the move list and the legal-move
//! summary, and the board picture of HTML mails ([`picture`]).

pub mod board;
pub mod picture;
pub mod summary;
pub mod templates;
