//! Days as players write them (`3`, `0.5`, `1.25`), and lengths of time
//! and instants as players read them (`12 days 4 hours`,
//! `2026-12-20 18:00 UTC`).

use std::fmt;

use time::{Duration, OffsetDateTime, UtcOffset};

/// Seconds in a hundredth of a day: the finest step a [`Days`] counts.
const SECONDS_PER_HUNDREDTH: i64 = 864;

/// A number of days with at most two decimals, kept exactly as hundredths
/// of a day (a hundredth is 14 minutes 24 seconds, a whole number of
/// seconds, so every `Days` is an exact [`Duration`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Days(u32);

impl Days {
    pub const ZERO: Days = Days(0);

    /// `days` whole days; `None` beyond what a `Days` holds.
    pub const fn whole(days: u32) -> Option<Days> {
        match days.checked_mul(100) {
            Some(hundredths) => Some(Days(hundredths)),
            None => None,
        }
    }

    pub const fn from_hundredths(hundredths: u32) -> Days {
        Days(hundredths)
    }

    pub const fn hundredths(self) -> u32 {
        self.0
    }

    /// The exact length of these days.
    pub fn duration(self) -> Duration {
        Duration::seconds(i64::from(self.0) * SECONDS_PER_HUNDREDTH)
    }

    pub fn checked_add(self, other: Days) -> Option<Days> {
        self.0.checked_add(other.0).map(Days)
    }

    pub fn checked_sub(self, other: Days) -> Option<Days> {
        self.0.checked_sub(other.0).map(Days)
    }

    /// Reads days written as a player writes them: `3`, `0.5`, `1.25`. The
    /// caller checks the bounds that fit what the days are for.
    pub fn parse(text: &str) -> Result<Days, DaysError> {
        let (whole, fraction) = match text.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (text, None),
        };
        let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || fraction.is_some_and(|f| !digits(f)) {
            return Err(DaysError::NotANumber);
        }
        let hundredths_of = |whole: u32, fraction: u32| {
            whole
                .checked_mul(100)
                .and_then(|h| h.checked_add(fraction))
                .map(Days)
                .ok_or(DaysError::TooLarge)
        };
        // More than nine digits is beyond any bound; this keeps the
        // arithmetic below in range.
        let whole: u32 = whole.parse().map_err(|_| DaysError::TooLarge)?;
        match fraction {
            None => hundredths_of(whole, 0),
            Some(fraction) if fraction.len() <= 2 => {
                // "0.5" is 50 hundredths, "0.05" is 5.
                let value: u32 = fraction.parse().map_err(|_| DaysError::NotANumber)?;
                hundredths_of(
                    whole,
                    if fraction.len() == 1 {
                        value * 10
                    } else {
                        value
                    },
                )
            }
            Some(fraction) => {
                // Rounded half up to hundredths, for the suggestion.
                let leading: u32 = fraction[..2].parse().map_err(|_| DaysError::NotANumber)?;
                let up = fraction.as_bytes()[2] >= b'5';
                let rounded = hundredths_of(whole, leading)?
                    .checked_add(Days(u32::from(up)))
                    .ok_or(DaysError::TooLarge)?;
                Err(DaysError::TooPrecise { rounded })
            }
        }
    }
}

/// Why a text is not a [`Days`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DaysError {
    NotANumber,
    /// More than two decimals; `rounded` is the nearest that may be written.
    TooPrecise {
        rounded: Days,
    },
    TooLarge,
}

/// `3`, `0.5`, `1.25`: the shortest text that [`Days::parse`] reads back
/// as the same days.
impl fmt::Display for Days {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, fraction) = (self.0 / 100, self.0 % 100);
        match fraction {
            0 => write!(f, "{whole}"),
            _ if fraction % 10 == 0 => write!(f, "{whole}.{}", fraction / 10),
            _ => write!(f, "{whole}.{fraction:02}"),
        }
    }
}

/// "1 day", "0.5 days", "3 days".
pub fn days_text(days: Days) -> String {
    if days == Days(100) {
        "1 day".to_string()
    } else {
        format!("{days} days")
    }
}

/// A length of time as players read it, rounded down (a player is never
/// told they have more time than they have): `12 days 4 hours`,
/// `5 hours 20 minutes`, `3 minutes`, `less than a minute`; `no time` for
/// none or less.
pub fn describe(length: Duration) -> String {
    if length <= Duration::ZERO {
        return "no time".to_string();
    }
    let (days, hours, minutes) = (
        length.whole_days(),
        length.whole_hours() % 24,
        length.whole_minutes() % 60,
    );
    let unit = |n: i64, what: &str| {
        if n == 1 {
            format!("1 {what}")
        } else {
            format!("{n} {what}s")
        }
    };
    let two = |big: String, small: i64, what: &str| {
        if small == 0 {
            big
        } else {
            format!("{big} {}", unit(small, what))
        }
    };
    if days > 0 {
        two(unit(days, "day"), hours, "hour")
    } else if hours > 0 {
        two(unit(hours, "hour"), minutes, "minute")
    } else if minutes > 0 {
        unit(minutes, "minute")
    } else {
        "less than a minute".to_string()
    }
}

/// An instant as players read it, in UTC to the minute (rounded down):
/// `2026-12-20 18:00 UTC`.
pub fn readable(at: OffsetDateTime) -> String {
    let at = at.to_offset(UtcOffset::UTC);
    format!(
        "{}-{:02}-{:02} {:02}:{:02} UTC",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute()
    )
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn days_parse_whole_and_decimal_and_print_back_the_same() {
        for (text, hundredths) in [
            ("3", 300),
            ("0.5", 50),
            ("1.25", 125),
            ("0.05", 5),
            ("365", 36_500),
            ("007", 700),
        ] {
            assert_eq!(Days::parse(text), Ok(Days(hundredths)), "{text}");
        }
        for days in [Days(300), Days(50), Days(125), Days(5), Days(10), Days(0)] {
            assert_eq!(Days::parse(&days.to_string()), Ok(days));
        }
        assert_eq!(Days(50).to_string(), "0.5");
        assert_eq!(Days(5).to_string(), "0.05");
        assert_eq!(Days(50).duration(), Duration::hours(12));
        assert_eq!(Days(1).duration(), Duration::seconds(864));
    }

    #[test]
    fn what_is_not_days_says_why() {
        for text in ["", ".5", "5.", "1,5", "3d", "-1", "+2", "1e3", "½"] {
            assert_eq!(Days::parse(text), Err(DaysError::NotANumber), "{text}");
        }
        assert_eq!(
            Days::parse("0.125"),
            Err(DaysError::TooPrecise { rounded: Days(13) })
        );
        assert_eq!(
            Days::parse("0.994"),
            Err(DaysError::TooPrecise { rounded: Days(99) })
        );
        assert_eq!(Days::parse("99999999999"), Err(DaysError::TooLarge));
        assert_eq!(Days::parse("4294967296"), Err(DaysError::TooLarge));
        assert_eq!(Days::parse("42949673"), Err(DaysError::TooLarge));
    }

    #[test]
    fn lengths_read_rounded_down() {
        let cases = [
            (
                Duration::days(12) + Duration::hours(4) + Duration::minutes(59),
                "12 days 4 hours",
            ),
            (Duration::days(1), "1 day"),
            (Duration::days(2) + Duration::minutes(30), "2 days"),
            (
                Duration::hours(5) + Duration::minutes(20),
                "5 hours 20 minutes",
            ),
            (Duration::hours(1) + Duration::minutes(1), "1 hour 1 minute"),
            (Duration::minutes(3), "3 minutes"),
            (Duration::seconds(59), "less than a minute"),
            (Duration::ZERO, "no time"),
            (Duration::hours(-3), "no time"),
        ];
        for (length, text) in cases {
            assert_eq!(describe(length), text);
        }
        assert_eq!(days_text(Days(100)), "1 day");
        assert_eq!(days_text(Days(50)), "0.5 days");
    }

    #[test]
    fn instants_read_in_utc_to_the_minute() {
        assert_eq!(
            readable(datetime!(2026-12-20 18:00:59 UTC)),
            "2026-12-20 18:00 UTC"
        );
        assert_eq!(
            readable(datetime!(2026-12-21 01:30 +02:00)),
            "2026-12-20 23:30 UTC"
        );
    }
}
