//! What players read: the ASCII board, the move list, the legal-move
//! summary, the rating tables, the PGN ([`pgn`]), times as players read
//! them ([`readable_time`]), and the board picture of HTML mails
//! ([`picture`]).

pub mod board;
pub mod palette;
pub mod pgn;
pub mod picture;
pub mod ratings;
pub mod summary;
pub mod templates;

use time::OffsetDateTime;

use crate::rules::Variant;
use time::format_description::well_known::Rfc3339;

/// A time as players read it: `2026-04-01 12:03 UTC`.
pub fn readable_time(time: OffsetDateTime) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    let utc = time.to_offset(time::UtcOffset::UTC);
    // A time the format cannot show is given as stored (RFC 3339).
    utc.format(&format)
        .unwrap_or_else(|_| utc.format(&Rfc3339).unwrap_or_default())
}

/// How board mails and the web name a Chess960 start:
/// `Start: Chess960 position 0 (BBQNNRKR)`.
pub fn start_line(variant: Variant, position: Option<u32>) -> Option<String> {
    let number = position.filter(|_| variant == Variant::Chess960)?;
    let game = crate::rules::Game::chess960(number)?;
    let fen = game.fen();
    let back_rank = fen.rsplit('/').next()?.split(' ').next()?.to_string();
    Some(format!("Chess960 position {number} ({back_rank})"))
}
