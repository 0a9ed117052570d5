//! Time controls: what `--time=` says, checked, and written back the same
//! way.

use std::fmt;
use std::str::FromStr;

use crate::days::{Days, DaysError, days_text};

/// The least time a turn, a block of turns or a bank may have: a quarter
/// of a day (6 hours). Less is no correspondence game.
pub const MIN_DAYS: Days = Days::from_hundredths(25);
/// The most days a turn, a block of turns, a bank or its cap may have.
pub const MAX_DAYS: Days = Days::from_hundredths(365 * 100);
/// The most turns a block of `N/D` may have.
pub const MAX_TURNS: u32 = 100;
/// The most days a bank may gain after a turn.
pub const MAX_INCREMENT: Days = Days::from_hundredths(30 * 100);

/// What `--time=` accepts, for error messages and help.
pub const FORMS: &str = "write D (D days per turn, e.g. 3), N/D (N turns in D days, e.g. 10/50) \
     or B+I/C (a bank of B days, I days more after each turn, at most C days, e.g. 30+1/45)";

/// A game's time control. A game keeps the control it started with.
///
/// [`FromStr`] reads what players write after `--time=` and refuses
/// absurd values (see [`MIN_DAYS`], [`MAX_DAYS`], [`MAX_TURNS`],
/// [`MAX_INCREMENT`]); [`Display`](fmt::Display) writes it back so it reads
/// again as the same control. The clock's arithmetic is checked, so a
/// control built by hand outside those bounds is safe, if unwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `D`: each turn within `days` of the player's thinking time, as pbem
    /// always did.
    PerTurn { days: Days },
    /// `N/D`, as ICCF counts it: turn `turns` done within `days` of the
    /// player's own thinking time, turn 2N within 2D, and so on; time not
    /// used carries over to the next block.
    Blocks { turns: u32, days: Days },
    /// `B+I` or `B+I/C`: a bank of `bank` days, `increment` days more after
    /// each of the player's turns, never more than `cap` days in the bank.
    Bank {
        bank: Days,
        increment: Days,
        cap: Option<Days>,
    },
}

impl TimeControl {
    /// The control of a board stored before time controls: `D` with its
    /// days for a turn (its loss-on-time days). Not checked against the
    /// bounds: a stored board keeps what it had.
    pub fn per_turn_days(days: u32) -> TimeControl {
        TimeControl::PerTurn {
            days: Days::whole(days).unwrap_or(Days::from_hundredths(u32::MAX)),
        }
    }

    /// The control as a sentence: "3 days per turn", "10 turns in 50
    /// days", "a bank of 30 days, 1 day more after each turn, at most 45
    /// days".
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::PerTurn { days } => format!("{} per turn", days_text(days)),
            TimeControl::Blocks { turns, days } => {
                let turns = if turns == 1 {
                    "1 turn".to_string()
                } else {
                    format!("{turns} turns")
                };
                format!("{turns} in {}, unused time carried over", days_text(days))
            }
            TimeControl::Bank {
                bank, increment, ..
            } if increment == Days::ZERO => {
                format!("a bank of {} for the whole game", days_text(bank))
            }
            TimeControl::Bank {
                bank,
                increment,
                cap,
            } => {
                let cap = cap.map_or(String::new(), |cap| format!(", at most {}", days_text(cap)));
                format!(
                    "a bank of {}, {} more after each turn{cap}",
                    days_text(bank),
                    days_text(increment)
                )
            }
        }
    }
}

/// `3`, `10/50`, `30+1`, `30+1/45`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::PerTurn { days } => write!(f, "{days}"),
            TimeControl::Blocks { turns, days } => write!(f, "{turns}/{days}"),
            TimeControl::Bank {
                bank,
                increment,
                cap: None,
            } => write!(f, "{bank}+{increment}"),
            TimeControl::Bank {
                bank,
                increment,
                cap: Some(cap),
            } => write!(f, "{bank}+{increment}/{cap}"),
        }
    }
}

/// Why a text is not a time control; the message says what to write
/// instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

impl FromStr for TimeControl {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<TimeControl, ParseError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ParseError(format!("no time control given: {FORMS}")));
        }
        if let Some((bank, rest)) = text.split_once('+') {
            let (increment, cap) = match rest.split_once('/') {
                Some((increment, cap)) => (increment, Some(cap)),
                None => (rest, None),
            };
            return bank_control(text, bank, increment, cap);
        }
        if let Some((turns, days)) = text.split_once('/') {
            return blocks_control(text, turns, days);
        }
        let days = days_in(text, text, "days per turn")?;
        within(text, days, MIN_DAYS, MAX_DAYS, "days per turn", "e.g. 3")?;
        Ok(TimeControl::PerTurn { days })
    }
}

fn blocks_control(text: &str, turns: &str, days: &str) -> Result<TimeControl, ParseError> {
    let turns: u32 = turns
        .parse()
        .ok()
        .filter(|turns| (1..=MAX_TURNS).contains(turns))
        .ok_or_else(|| {
            ParseError(format!(
                "\"{text}\": N in N/D is a whole number of turns from 1 to {MAX_TURNS}, e.g. 10/50"
            ))
        })?;
    let days = days_in(text, days, "days of a block")?;
    within(
        text,
        days,
        MIN_DAYS,
        MAX_DAYS,
        &format!("days for a block of {turns} turns"),
        "e.g. 10/50",
    )?;
    Ok(TimeControl::Blocks { turns, days })
}

fn bank_control(
    text: &str,
    bank: &str,
    increment: &str,
    cap: Option<&str>,
) -> Result<TimeControl, ParseError> {
    if increment.contains(['+', '/']) || cap.is_some_and(|cap| cap.contains(['+', '/'])) {
        return Err(ParseError(format!(
            "\"{text}\" is not a time control: {FORMS}"
        )));
    }
    let bank = days_in(text, bank, "days in the bank")?;
    within(
        text,
        bank,
        MIN_DAYS,
        MAX_DAYS,
        "days in the bank",
        "e.g. 30+1",
    )?;
    let increment = days_in(text, increment, "days added after a turn")?;
    within(
        text,
        increment,
        Days::ZERO,
        MAX_INCREMENT,
        "days added after a turn",
        "e.g. 30+1",
    )?;
    let cap = cap
        .map(|cap| days_in(text, cap, "days the bank may hold"))
        .transpose()?;
    if let Some(cap) = cap {
        if increment == Days::ZERO {
            return Err(ParseError(format!(
                "\"{text}\": without days added after a turn the bank never grows, so a cap says nothing: write {bank}+0"
            )));
        }
        if cap < bank {
            return Err(ParseError(format!(
                "\"{text}\": the cap of {cap} days is below the bank of {bank} days it starts with: \
                 write a cap of at least {bank} (e.g. {bank}+{increment}/{}) or none ({bank}+{increment})",
                bank.checked_add(bank)
                    .filter(|c| *c <= MAX_DAYS)
                    .unwrap_or(MAX_DAYS)
            )));
        }
        within(
            text,
            cap,
            MIN_DAYS,
            MAX_DAYS,
            "days the bank may hold",
            "e.g. 30+1/45",
        )?;
    }
    Ok(TimeControl::Bank {
        bank,
        increment,
        cap,
    })
}

/// `part` of the control `text` read as days, with an error that says how
/// to write them.
fn days_in(text: &str, part: &str, what: &str) -> Result<Days, ParseError> {
    Days::parse(part).map_err(|error| {
        ParseError(match error {
            DaysError::NotANumber if part.contains(',') => format!(
                "\"{text}\": write the {what} with a point, not a comma: {}",
                part.replace(',', ".")
            ),
            DaysError::NotANumber if part.trim().is_empty() => {
                format!("\"{text}\": the {what} are missing: {FORMS}")
            }
            DaysError::NotANumber => format!(
                "\"{text}\": \"{part}\" is not a number of {what}: write whole or decimal days such as 3 or 0.5 ({FORMS})"
            ),
            DaysError::TooPrecise { rounded } => format!(
                "\"{text}\": the clock counts days to two decimals: write {rounded} for the {what}, not {part}"
            ),
            DaysError::TooLarge => {
                format!("\"{text}\": {part} {what} is far too many: at most {MAX_DAYS}")
            }
        })
    })
}

fn within(
    text: &str,
    days: Days,
    least: Days,
    most: Days,
    what: &str,
    example: &str,
) -> Result<(), ParseError> {
    if (least..=most).contains(&days) {
        Ok(())
    } else {
        Err(ParseError(format!(
            "\"{text}\": {days} {what} is out of bounds: give {least} to {most} {what}, {example}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(hundredths: u32) -> Days {
        Days::from_hundredths(hundredths)
    }

    #[test]
    fn the_three_forms_parse_and_print_back() {
        let cases = [
            ("3", TimeControl::PerTurn { days: days(300) }),
            ("0.5", TimeControl::PerTurn { days: days(50) }),
            (
                "10/50",
                TimeControl::Blocks {
                    turns: 10,
                    days: days(5000),
                },
            ),
            (
                "2/0.75",
                TimeControl::Blocks {
                    turns: 2,
                    days: days(75),
                },
            ),
            (
                "30+1",
                TimeControl::Bank {
                    bank: days(3000),
                    increment: days(100),
                    cap: None,
                },
            ),
            (
                "30+1/45",
                TimeControl::Bank {
                    bank: days(3000),
                    increment: days(100),
                    cap: Some(days(4500)),
                },
            ),
            (
                "10+1.5/10",
                TimeControl::Bank {
                    bank: days(1000),
                    increment: days(150),
                    cap: Some(days(1000)),
                },
            ),
            (
                "3+0",
                TimeControl::Bank {
                    bank: days(300),
                    increment: days(0),
                    cap: None,
                },
            ),
        ];
        for (text, control) in cases {
            assert_eq!(text.parse::<TimeControl>(), Ok(control), "{text}");
            assert_eq!(control.to_string(), text);
        }
        assert_eq!(
            " 10/50 ".parse::<TimeControl>().map(|c| c.to_string()),
            Ok("10/50".to_string())
        );
    }

    #[test]
    fn the_bounds_are_the_documented_ones() {
        for ok in ["0.25", "365", "1/0.25", "100/365", "0.25+0", "365+30/365"] {
            assert!(ok.parse::<TimeControl>().is_ok(), "{ok}");
        }
        for bad in [
            "0.24",
            "0",
            "365.01",
            "366",
            "0/10",
            "101/365",
            "10/0.2",
            "10/366",
            "0.2+1",
            "366+1",
            "30+30.01",
            "30+1/366",
            "30+0/45",
            "30+1/29.99",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn errors_say_what_to_write_instead() {
        let error = |text: &str| text.parse::<TimeControl>().expect_err(text).to_string();
        assert!(error("").contains("e.g. 10/50"), "{}", error(""));
        assert!(error("fast").contains("e.g. 30+1/45"), "{}", error("fast"));
        assert!(error("1,5").contains("1.5"), "{}", error("1,5"));
        assert!(error("0.125").contains("write 0.13"), "{}", error("0.125"));
        assert!(
            error("0.1").contains("give 0.25 to 365 days per turn"),
            "{}",
            error("0.1")
        );
        assert!(
            error("1000").contains("give 0.25 to 365"),
            "{}",
            error("1000")
        );
        assert!(
            error("200/50").contains("from 1 to 100"),
            "{}",
            error("200/50")
        );
        assert!(error("10/0").contains("e.g. 10/50"), "{}", error("10/0"));
        assert!(error("30+1/20").contains("30+1/60"), "{}", error("30+1/20"));
        assert!(
            error("300+1/20").contains("300+1/365"),
            "{}",
            error("300+1/20")
        );
        assert!(error("30+/45").contains("missing"), "{}", error("30+/45"));
        assert!(
            error("30+1/45/2").contains("B+I/C"),
            "{}",
            error("30+1/45/2")
        );
        assert!(
            error("30+0/40").contains("write 30+0"),
            "{}",
            error("30+0/40")
        );
        assert!(
            error("99999999999").contains("at most 365"),
            "{}",
            error("99999999999")
        );
    }

    #[test]
    fn a_stored_board_reads_as_days_per_turn() {
        assert_eq!(
            TimeControl::per_turn_days(21),
            TimeControl::PerTurn { days: days(2100) }
        );
        assert_eq!(TimeControl::per_turn_days(21).to_string(), "21");
    }

    #[test]
    fn a_control_reads_as_a_sentence() {
        let describe = |text: &str| text.parse::<TimeControl>().map(|c| c.describe());
        assert_eq!(describe("1"), Ok("1 day per turn".into()));
        assert_eq!(
            describe("10/50"),
            Ok("10 turns in 50 days, unused time carried over".into())
        );
        assert_eq!(
            describe("30+1/45"),
            Ok("a bank of 30 days, 1 day more after each turn, at most 45 days".into())
        );
        assert_eq!(
            describe("3+0.5"),
            Ok("a bank of 3 days, 0.5 days more after each turn".into())
        );
        assert_eq!(
            describe("20+0"),
            Ok("a bank of 20 days for the whole game".into())
        );
    }
}
