//! What players read: the ASCII board, the move list and the legal-move
//! summary. Text only; the mail templates that frame it come later.

pub mod board;
pub mod summary;
pub mod templates;
