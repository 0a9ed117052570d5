//! The record of a game as text: a move list wrapped for a mail, and the
//! PGN of a board (with the Variant tag, and the event's tags for a
//! tournament game).

use time::Date;

use crate::rules::Variant;

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
        ("Variant", header.variant.display_name().to_string()),
    ];
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
    fn a_numbered_turn_is_never_wrapped_apart() {
        let record = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Be2,O-O Nxe4";
        let wrapped = wrap(record, 60);
        assert!(wrapped.contains("6.Be2,O-O Nxe4"), "{wrapped}");
        assert!(wrapped.lines().all(|l| l.len() <= 60), "{wrapped}");
    }
}
