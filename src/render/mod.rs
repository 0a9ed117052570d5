//! What players read: the ASCII board, the move list, the legal-move
//! summary and the rating tables. Text only; the mail templates that frame it come later.

pub mod board;
pub mod ratings;
pub mod summary;
pub mod templates;
