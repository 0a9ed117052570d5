//! What players read: the ASCII board, the move list, the legal-move
//! summary, the rating tables, and the board picture of HTML mails
//! ([`picture`]).

pub mod board;
pub mod deflate;
pub mod palette;
pub mod picture;
pub mod ratings;
pub mod summary;
pub mod templates;
