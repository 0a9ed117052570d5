//! When the player to move is reminded: at a share of the time they had
//! for the turn, and at some days left (by default a quarter and one day).

use std::fmt;
use std::str::FromStr;

use crate::days::{Days, DaysError};

/// The most days left a reminder may wait for.
pub const MAX_REMINDER_DAYS: Days = Days::from_hundredths(30 * 100);

/// What `--remind=` accepts, for error messages and help.
pub const REMINDER_FORMS: &str = "write a share of the turn's time left and days left, e.g. 25%,1 \
     (either alone, e.g. 50% or 2, or none)";

/// The reminders of a game (per challenge or event). Each is sent at most
/// once a turn, and a board sends at most one reminder a day (see
/// [`Clock::due`](crate::Clock::due)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reminders {
    /// Remind when this share (in percent, 1 to 99) of the time the player
    /// had at the start of the turn is left.
    pub share_left: Option<u8>,
    /// Remind when this much time is left (0.25 to 30 days).
    pub days_left: Option<Days>,
}

impl Default for Reminders {
    /// A quarter of the time left, and one day left.
    fn default() -> Reminders {
        Reminders {
            share_left: Some(25),
            days_left: Days::whole(1),
        }
    }
}

/// `25%,1`, `50%`, `2`, `none`.
impl fmt::Display for Reminders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.share_left, self.days_left) {
            (None, None) => f.write_str("none"),
            (Some(share), None) => write!(f, "{share}%"),
            (None, Some(days)) => write!(f, "{days}"),
            (Some(share), Some(days)) => write!(f, "{share}%,{days}"),
        }
    }
}

/// Why a text is not [`Reminders`]; the message says what to write
/// instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemindersError(String);

impl fmt::Display for RemindersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RemindersError {}

impl FromStr for Reminders {
    type Err = RemindersError;

    fn from_str(text: &str) -> Result<Reminders, RemindersError> {
        let text = text.trim();
        let refuse = |why: String| RemindersError(format!("\"{text}\": {why}"));
        let mut reminders = Reminders {
            share_left: None,
            days_left: None,
        };
        if text.eq_ignore_ascii_case("none") {
            return Ok(reminders);
        }
        if text.is_empty() {
            return Err(RemindersError(format!(
                "no reminders given: {REMINDER_FORMS}"
            )));
        }
        for part in text.split(',').map(str::trim) {
            if let Some(share) = part.strip_suffix('%') {
                let share = share
                    .trim()
                    .parse()
                    .ok()
                    .filter(|share| (1..=99).contains(share))
                    .ok_or_else(|| refuse(format!("a share left is 1% to 99%, not {part}")))?;
                if reminders.share_left.replace(share).is_some() {
                    return Err(refuse(format!("one share left at most: {REMINDER_FORMS}")));
                }
            } else {
                let days = Days::parse(part).map_err(|error| match error {
                    DaysError::TooPrecise { rounded } => {
                        refuse(format!("write {rounded} days left, not {part}"))
                    }
                    _ => refuse(format!(
                        "\"{part}\" is neither a share nor days: {REMINDER_FORMS}"
                    )),
                })?;
                if !(crate::MIN_DAYS..=MAX_REMINDER_DAYS).contains(&days) {
                    return Err(refuse(format!(
                        "a reminder comes at {} to {MAX_REMINDER_DAYS} days left, not {days}",
                        crate::MIN_DAYS
                    )));
                }
                if reminders.days_left.replace(days).is_some() {
                    return Err(refuse(format!(
                        "one number of days left at most: {REMINDER_FORMS}"
                    )));
                }
            }
        }
        Ok(reminders)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reminders_parse_and_print_back() {
        let cases = [
            ("25%,1", Some(25), Some(100)),
            ("50%", Some(50), None),
            ("2", None, Some(200)),
            ("0.5", None, Some(50)),
            ("none", None, None),
        ];
        for (text, share_left, days_left) in cases {
            let reminders = Reminders {
                share_left,
                days_left: days_left.map(Days::from_hundredths),
            };
            assert_eq!(text.parse(), Ok(reminders), "{text}");
            assert_eq!(reminders.to_string(), text);
        }
        assert_eq!(
            "1, 10%".parse::<Reminders>().map(|r| r.to_string()),
            Ok("10%,1".into())
        );
        assert_eq!(Reminders::default().to_string(), "25%,1");
    }

    #[test]
    fn odd_reminders_are_refused_with_what_to_write() {
        for (text, says) in [
            ("", "e.g. 25%,1"),
            ("0%", "1% to 99%"),
            ("100%", "1% to 99%"),
            ("25%,50%", "one share"),
            ("1,2", "one number"),
            ("31", "0.25 to 30"),
            ("0.1", "0.25 to 30"),
            ("0.333", "write 0.33"),
            ("soon", "neither"),
        ] {
            let error = text.parse::<Reminders>().expect_err(text).to_string();
            assert!(error.contains(says), "{text}: {error}");
        }
    }
}
