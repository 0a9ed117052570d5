//! What players read: the ASCII board, the move list, the legal-move
//! summary, the rating tables, the PGN ([`pgn`]), times as players read
//! them ([`readable_time`]), counted phrases ([`count`]: `1 day`, `2
//! days`), and the board picture of HTML mails ([`picture`]).

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

/// How board mails and the web name a thematic start: `B90 Sicilian
/// Defense: Najdorf Variation (1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6
/// 5.Nc3 a6)`; `None` for a game without one.
pub fn opening_line(
    variant: Variant,
    opening: Option<&crate::openings::Opening>,
) -> Option<String> {
    let opening = opening.filter(|_| variant == Variant::Chess)?;
    Some(format!("{} ({})", opening.label(), opening.numbered()))
}

/// A counted phrase as players read it: `0 days`, `1 day`, `2 days`. The
/// plural adds `s` to `singular`; a noun that does not (`1 match`, `2
/// matches`) goes through [`count_as`]. Every number pbem writes before a
/// noun goes through one of the two, in code and (as the `count` filter)
/// in the templates, so `1 days` cannot come back.
pub fn count(n: impl std::fmt::Display, singular: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        format!("1 {singular}")
    } else {
        format!("{n} {singular}s")
    }
}

/// [`count`] with the plural given: `count_as(2, "match", "matches")`.
pub fn count_as(n: impl std::fmt::Display, singular: &str, plural: &str) -> String {
    let n = n.to_string();
    let noun = if n == "1" { singular } else { plural };
    format!("{n} {noun}")
}

/// The noun alone, for phrases whose number stands apart (`{done} of 1
/// game`): `noun(1, "game")` is `game`, any other number `games`.
pub fn noun(n: impl std::fmt::Display, singular: &str) -> String {
    if n.to_string() == "1" {
        singular.to_string()
    } else {
        format!("{singular}s")
    }
}

/// Move numbers as players count them, beside pbem's turn numbers: a
/// turn pair (White's turn and Black's answer) is one move of the game
/// record, whatever each turn holds, so `turn #27` (White to move) is
/// `move 14, White to move (turn #27)`. `move_number` is the rules'
/// turn-pair counter of the position to move.
pub fn move_and_turn(move_number: u32, white_to_move: bool, turn_seq: usize) -> String {
    let side = if white_to_move { "White" } else { "Black" };
    format!("move {move_number}, {side} to move (turn #{turn_seq})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_phrases_agree_with_0_1_and_2() {
        assert_eq!(count(0, "day"), "0 days");
        assert_eq!(count(1, "day"), "1 day");
        assert_eq!(count(2, "day"), "2 days");
        assert_eq!(count(1.5, "day"), "1.5 days");
        assert_eq!(count_as(1, "match", "matches"), "1 match");
        assert_eq!(count_as(2, "match", "matches"), "2 matches");
        assert_eq!(noun(1, "game"), "game");
        assert_eq!(noun(0, "game"), "games");
    }
}
