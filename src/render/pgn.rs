//! The record of a game as text: a move list wrapped for a mail, and the
//! PGN of a board (with the Variant tag, the event's tags for a
//! tournament game, the ratings before a rated game, the time control in
//! the PGN standard's seconds, and how the game ended; a thematic game's
//! `ECO` and `Opening`, its moves written from the usual start).

use pbem_clock::{Days, TimeControl};
use time::Date;

use crate::openings::Opening;
use crate::rules::{Game, Variant};

/// What a board's PGN says besides its moves.
pub struct PgnHeader<'a> {
    /// The server's address (the `Site` tag).
    pub site: String,
    pub board: u32,
    /// The event's name and round, for a tournament game; its board number
    /// then goes into a `Board` tag.
    pub event: Option<(&'a str, u32)>,
    /// The day the board was made.
    pub date: Date,
    pub white: String,
    pub black: String,
    /// The stored result: `None` or `-` for a game without one.
    pub result: Option<&'a str>,
    pub variant: Variant,
    /// The FEN of the start where it is not the usual one (a Chess960
    /// array): the `SetUp` and `FEN` tags.
    pub start_fen: Option<String>,
    /// The opening a thematic game started after: the `ECO` and
    /// `Opening` tags.
    pub opening: Option<&'a Opening>,
    /// White's and Black's ratings before the game, for a rated game that
    /// was rated.
    pub elo: Option<(f64, f64)>,
    /// The board's control (a board made before controls: its days for a
    /// turn as `D`).
    pub control: TimeControl,
    /// Why the game ended, as the board records it (`None` while it runs).
    pub end_reason: Option<&'a str>,
}

/// The `Termination` tag: the PGN standard's word for how a game ended,
/// from the board's result and the reason recorded with it (the wordings
/// of `service::ending`'s callers: a loss on time, a director's ruling, an
/// event's round deadline, a withdrawal, a declined or cancelled board).
/// Mate, resignation, agreement, a claim and every other end over the
/// board is `normal`.
pub fn termination(result: Option<&str>, reason: Option<&str>) -> &'static str {
    let reason = reason.unwrap_or("");
    match result {
        None => "unterminated",
        // A board that never counted: declined, lapsed, or cancelled.
        Some("-") => "abandoned",
        Some(_) if reason.starts_with("lost on time") => "time forfeit",
        Some(_)
            if reason.starts_with("adjudicated by the director")
                || reason.contains("scored as a draw by the event's rule") =>
        {
            "adjudication"
        }
        // A withdrawal from an event scores its games unplayed.
        Some(_) if reason.contains(" withdrew from the event ") => "abandoned",
        Some(_) => "normal",
    }
}

/// The `TimeControl` tag in the PGN standard's form, in seconds: `D`
/// days a turn is `1/<seconds>`, `N/D` is `N/<seconds>`, a bank `B+I` is
/// `<seconds>+<seconds>` (the standard has no word for a cap).
pub fn time_control(control: TimeControl) -> String {
    let seconds = |days: Days| days.duration().whole_seconds();
    match control {
        TimeControl::PerTurn { days } => format!("1/{}", seconds(days)),
        TimeControl::Blocks { turns, days } => format!("{turns}/{}", seconds(days)),
        TimeControl::Bank {
            bank, increment, ..
        } => format!("{}+{}", seconds(bank), seconds(increment)),
    }
}

/// The PGN of a game: its tags, then `record` (the moves) and the result.
pub fn pgn_text(header: PgnHeader<'_>, record: &str) -> String {
    let number = header.board;
    let result = match header.result {
        Some("-") | None => "*".to_string(),
        Some(score) => score.to_string(),
    };
    let date = header.date;
    let (event_name, round) = match header.event {
        Some((name, round)) => (name.to_string(), round.to_string()),
        None => (format!("pbem board {number}"), "-".to_string()),
    };
    let mut tags = vec![
        ("Event", event_name),
        ("Site", header.site),
        (
            "Date",
            format!(
                "{:04}.{:02}.{:02}",
                date.year(),
                u8::from(date.month()),
                date.day()
            ),
        ),
        ("Round", round),
        ("White", header.white),
        ("Black", header.black),
        ("Result", result.clone()),
    ];
    if let Some((white, black)) = header.elo {
        // The standard's Elo tags take whole numbers.
        tags.push(("WhiteElo", format!("{}", white.round())));
        tags.push(("BlackElo", format!("{}", black.round())));
    }
    tags.push(("TimeControl", time_control(header.control)));
    tags.push((
        "Termination",
        termination(header.result, header.end_reason).to_string(),
    ));
    tags.push(("Variant", header.variant.display_name().to_string()));
    if let Some(fen) = header.start_fen {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", fen));
    }
    if let Some(opening) = header.opening {
        tags.push(("ECO", opening.eco.clone()));
        tags.push(("Opening", opening.name.clone()));
    }
    if header.event.is_some() {
        tags.push(("Board", number.to_string()));
    }
    let mut pgn = String::new();
    for (tag, value) in tags {
        pgn.push_str(&format!(
            "[{tag} \"{}\"]\n",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    pgn.push('\n');
    let movetext = if record.is_empty() {
        result
    } else {
        format!("{record} {result}")
    };
    // PGN export format keeps lines under 80 characters.
    pgn.push_str(&wrap(&movetext, 79));
    pgn.push('\n');
    pgn
}

/// The FEN of a board's start for the `FEN` tag: every Chess960 game
/// carries it (the `Variant` tag alone does not say the array), other
/// games start from the usual position and carry none.
pub fn start_fen(board: &crate::store::boards::Board) -> Option<String> {
    (board.variant == Variant::Chess960).then(|| board.initial_game().initial_fen())
}

/// A game's moves for its PGN: from the usual start, so a thematic game's
/// opening moves come first (its game starts after them, see
/// `Board::initial_game`) and the turns played go on from them.
pub fn record_from_usual_start(opening: Option<&Opening>, game: &Game) -> String {
    let Some(opening) = opening else {
        return game.record();
    };
    let mut out = opening.numbered();
    for turn in game.turns() {
        out.push(' ');
        if turn.mover == shakmaty::Color::White {
            out.push_str(&turn.numbered());
        } else {
            out.push_str(&turn.text());
        }
    }
    out
}

/// Wraps a move list at `width` columns, breaking only before a move
/// number: the two halves of a numbered turn (`6.Be2,O-O Nxe4`) stay on
/// one line.
pub fn wrap(text: &str, width: usize) -> String {
    let mut units: Vec<String> = Vec::new();
    for word in text.split(' ') {
        let numbered = word.split_once('.').is_some_and(|(number, _)| {
            !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
        });
        match units.last_mut() {
            Some(unit) if !numbered => {
                unit.push(' ');
                unit.push_str(word);
            }
            _ => units.push(word.to_string()),
        }
    }
    let mut out = String::new();
    let mut column = 0;
    for unit in units {
        let length = unit.chars().count();
        if column > 0 && column + 1 + length > width {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(&unit);
        column += length;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_in_seconds_as_the_standard_writes_them() {
        let days = |text: &str| Days::parse(text).unwrap();
        let cases = [
            (TimeControl::PerTurn { days: days("3") }, "1/259200"),
            (
                TimeControl::Blocks {
                    turns: 10,
                    days: days("50"),
                },
                "10/4320000",
            ),
            (
                TimeControl::Bank {
                    bank: days("30"),
                    increment: days("0.5"),
                    cap: Some(days("45")),
                },
                "2592000+43200",
            ),
        ];
        for (control, text) in cases {
            assert_eq!(time_control(control), text);
        }
    }

    #[test]
    fn every_recorded_end_has_its_standard_termination() {
        let cases = [
            (None, None, "unterminated"),
            (Some("1-0"), Some("checkmate"), "normal"),
            (Some("0-1"), Some("alice resigned"), "normal"),
            (Some("1/2-1/2"), Some("draw by agreement"), "normal"),
            (
                Some("1-0"),
                Some("lost on time: bob did not move within 14 days"),
                "time forfeit",
            ),
            (
                Some("1/2-1/2"),
                Some("adjudicated by the director: dead drawn"),
                "adjudication",
            ),
            (
                Some("1/2-1/2"),
                Some("the 7 days of round 2 passed: scored as a draw by the event's rule"),
                "adjudication",
            ),
            (
                Some("0-1"),
                Some("alice withdrew from the event spring"),
                "abandoned",
            ),
            (Some("-"), Some("declined by bob"), "abandoned"),
        ];
        for (result, reason, word) in cases {
            assert_eq!(termination(result, reason), word, "{reason:?}");
        }
    }

    #[test]
    fn a_numbered_turn_is_never_wrapped_apart() {
        let record = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Be2,O-O Nxe4";
        let wrapped = wrap(record, 60);
        assert!(wrapped.contains("6.Be2,O-O Nxe4"), "{wrapped}");
        assert!(wrapped.lines().all(|l| l.len() <= 60), "{wrapped}");
    }
}
