//! Where a game starts: the Chess960 starting array, chosen by the player
//! (`--position=N`) or drawn at random (named by [`start_line`]); or, for
//! chess, after an opening's moves (`--opening=`, a thematic start).

use crate::openings::Opening;
use crate::rules::Variant;
use crate::rules::game::CHESS960_ARRAYS;
use crate::service::{Failure, refuse};

/// The starting array of a new game of `variant`: the one asked for, or
/// one drawn at random for Chess960; `None` for every other variant, which
/// refuses `--position`.
pub fn chosen_position(variant: Variant, asked: Option<u32>) -> Result<Option<u32>, Failure> {
    if variant != Variant::Chess960 {
        return match asked {
            Some(_) => Err(refuse(
                format!(
                    "--position chooses a Chess960 starting array; {} has only the usual start",
                    variant.id()
                ),
                None,
            )),
            None => Ok(None),
        };
    }
    Ok(Some(asked.unwrap_or_else(random_position)))
}

/// The opening a new game of `variant` starts after, if one was asked
/// for: only chess plays them (a double-move variant's turns are not the
/// opening's single moves, and a Chess960 array is a start of its own), and
/// never with `--position`.
pub fn chosen_opening(
    variant: Variant,
    position: Option<u32>,
    asked: Option<&Opening>,
) -> Result<Option<Opening>, Failure> {
    let Some(opening) = asked else {
        return Ok(None);
    };
    if position.is_some() {
        return Err(refuse(
            "--opening and --position are two different starts; give one of them",
            None,
        ));
    }
    if variant != Variant::Chess {
        return Err(refuse(
            format!(
                "--opening starts a game of chess after an opening's moves; {} cannot play them (its games start from its own first turn)",
                variant.id()
            ),
            None,
        ));
    }
    Ok(Some(opening.clone()))
}

/// A Chess960 array number drawn uniformly from 0 to 959 by the system's
/// random source (two bytes, redrawn past the last whole multiple of 960
/// so that no number is favoured).
pub fn random_position() -> u32 {
    loop {
        let mut bytes = [0u8; 2];
        if getrandom::fill(&mut bytes).is_err() {
            // No random source: the usual array rather than no game.
            return crate::rules::game::CHESS960_STANDARD;
        }
        let drawn = u32::from(u16::from_le_bytes(bytes));
        let whole = (u32::from(u16::MAX) + 1) / CHESS960_ARRAYS * CHESS960_ARRAYS;
        if drawn < whole {
            return drawn % CHESS960_ARRAYS;
        }
    }
}

pub use crate::render::start_line;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_positions_are_arrays() {
        for _ in 0..200 {
            assert!(random_position() < CHESS960_ARRAYS);
        }
    }

    #[test]
    fn the_start_line_names_the_back_rank() {
        assert_eq!(
            start_line(Variant::Chess960, Some(0)).as_deref(),
            Some("Chess960 position 0 (BBQNNRKR)")
        );
        assert_eq!(start_line(Variant::Chess, Some(0)), None);
    }
}
