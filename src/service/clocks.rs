//! Boards with a time control (issue 27): their clock, replayed by the
//! crate pbem-clock from what the store keeps (`store::clocks`), and the
//! vacations that stop it (`store::deadlines::honoured_vacations`, the one
//! place that says what stops a clock). The sweep, the board mails, the
//! web page and `extend` all read a board's clock here.

use pbem_clock::{Clock, Reminders, Side, TimeControl};
use shakmaty::Color;

pub use crate::store::clocks::{BoardClock, board_clock};

pub fn side_of(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// Both players' clocks for the board mail, by name: `alice (White): 12
/// days 4 hours left`.
pub fn clock_lines(clock: &Clock, white: &str, black: &str) -> Vec<String> {
    [(Side::White, white), (Side::Black, black)]
        .into_iter()
        .map(|(side, name)| format!("{name} ({side}): {}", clock.line(side)))
        .collect()
}

/// The control and reminders `--time` and `--remind` ask for (of a
/// challenge or an event); `None` when neither is given: the board keeps
/// the deadlines of `--days`/`--forfeit`/`--nag` as before. `--days=D`
/// (or `--forfeit=D`) with `--remind` is the control `D`, which
/// `forfeit_days` holds.
pub(super) fn chosen_control(
    time: Option<TimeControl>,
    remind: Option<Reminders>,
    days_given: bool,
    nag_given: bool,
    forfeit_days: u32,
) -> Result<Option<(TimeControl, Reminders)>, String> {
    if time.is_none() && remind.is_none() {
        return Ok(None);
    }
    if time.is_some() && days_given {
        return Err(
            "give --time or --days/--forfeit, not both: they all set the time for a turn (--days=3 is --time=3)"
                .into(),
        );
    }
    if nag_given {
        return Err(
            "with --time or --remind, --remind says when reminders come (e.g. --remind=25%,1), not --nag"
                .into(),
        );
    }
    Ok(Some((
        time.unwrap_or(TimeControl::per_turn_days(forfeit_days)),
        remind.unwrap_or_default(),
    )))
}
