//! Options more than one command reads: a time control (`--time=`) and
//! its reminders (`--remind=`), on `challenge`, `tournament create` and
//! `ladder create`.

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
