//! Options more than one command reads: a time control (`--time=`) and
//! its reminders (`--remind=`), on `challenge`, `tournament create` and
//! `ladder create`; a Chess960 starting array (`--position=`), on
//! `challenge` and `tournament create`; a thematic start (`--opening=`),
//! on the same two.

use pbem_clock::{Reminders, TimeControl};

use super::{CommandError, error};

/// Reads `--time=<control>`.
pub(super) fn time_control(
    keyword: &str,
    value: Option<&str>,
    usage: &'static str,
) -> Result<TimeControl, CommandError> {
    let value = value.ok_or_else(|| {
        error(
            keyword,
            &format!("--time needs a control: {}", pbem_clock::FORMS),
            usage,
        )
    })?;
    value
        .parse()
        .map_err(|problem| error(keyword, &format!("--time={value}: {problem}"), usage))
}

/// Reads `--remind=<when>`.
pub(super) fn reminders(
    keyword: &str,
    value: Option<&str>,
    usage: &'static str,
) -> Result<Reminders, CommandError> {
    let value = value.ok_or_else(|| {
        error(
            keyword,
            &format!("--remind needs a value: {}", pbem_clock::REMINDER_FORMS),
            usage,
        )
    })?;
    value
        .parse()
        .map_err(|problem| error(keyword, &format!("--remind={value}: {problem}"), usage))
}

/// Reads `--position=<N>`: a Chess960 starting array, 0 to 959.
pub(super) fn position(
    keyword: &str,
    value: Option<&str>,
    usage: &'static str,
) -> Result<u32, CommandError> {
    let value = value.unwrap_or_default();
    value
        .parse::<u32>()
        .ok()
        .filter(|number| *number < crate::rules::game::CHESS960_ARRAYS)
        .ok_or_else(|| {
            error(
                keyword,
                &format!(
                    "--position={value}: give the number of a Chess960 starting array, from 0 to 959 (518 is the usual one)"
                ),
                usage,
            )
        })
}

/// Reads `--opening=<ECO code or name>`: the opening of the table that a
/// code (its first row) or a name written with `-` for spaces means; an
/// unknown or ambiguous one is refused, the matches named.
pub(super) fn opening(
    keyword: &str,
    value: Option<&str>,
    usage: &'static str,
) -> Result<crate::openings::Opening, CommandError> {
    let value = value.unwrap_or_default();
    crate::openings::find(value)
        .cloned()
        .map_err(|problem| error(keyword, &format!("--opening={value}: {problem}"), usage))
}
