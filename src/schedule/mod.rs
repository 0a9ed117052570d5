//! Deadlines: when a board's player to move is reminded ("nagged"), when the
//! game is lost on time, and when an unanswered draw offer counts as
//! accepted. Pure arithmetic on times; the service applies the results
//! (`service::deadlines`), and [`cron`] runs the sweep on a schedule.
//!
//! A board's clock runs from its last turn (or its creation) while it is a
//! player's turn, and stops during that player's vacations. Reminders come
//! every `nag_days` of running clock (one per sweep at most, never twice for
//! the same interval); the loss on time comes after `forfeit_days`.

pub mod cron;

use time::{Duration, OffsetDateTime};

use crate::domain::{TurnDeadlines, Vacation};

/// What a board's deadlines call for now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    Nothing,
    /// Send a reminder: `n` reminders are due by now (1 for the first). Only
    /// one mail goes out even when a sweep was missed; the count is kept.
    Nag(u32),
    /// The player to move lost on time.
    LossOnTime,
    /// A draw offer stood unanswered until the forfeit time: it is accepted.
    DrawByTimeout,
}

/// How long the clock of a turn started at `since` has run by `now`, with
/// the vacations of the player to move taken out.
pub fn running_time(
    since: OffsetDateTime,
    now: OffsetDateTime,
    vacations: &[Vacation],
) -> Duration {
    if now <= since {
        return Duration::ZERO;
    }
    let mut paused = Duration::ZERO;
    // Overlapping vacations must not be subtracted twice: walk them in order.
    let mut sorted: Vec<&Vacation> = vacations.iter().collect();
    sorted.sort_by_key(|v| v.starts_at);
    let mut covered_until = since;
    for vacation in sorted {
        let start = vacation.starts_at.max(covered_until);
        let end = vacation.ends_at.min(now);
        if end > start {
            paused += end - start;
            covered_until = end;
        }
    }
    (now - since) - paused
}

/// Whether a standing draw offer went unanswered for the board's forfeit
/// days, so that it counts as accepted (with any time control).
pub fn draw_timed_out(deadlines: &TurnDeadlines, now: OffsetDateTime) -> bool {
    deadlines
        .draw_offered_at
        .is_some_and(|offered| now - offered >= days(deadlines.forfeit_days))
}

/// What `deadlines` call for at `now`.
pub fn due(deadlines: &TurnDeadlines, now: OffsetDateTime, vacations: &[Vacation]) -> Due {
    if draw_timed_out(deadlines, now) {
        return Due::DrawByTimeout;
    }
    let running = running_time(deadlines.last_turn_at, now, vacations);
    if running >= days(deadlines.forfeit_days) {
        return Due::LossOnTime;
    }
    let nag_every = days(deadlines.nag_days.max(1));
    let reminders_due =
        u32::try_from(running.whole_seconds() / nag_every.whole_seconds()).unwrap_or(u32::MAX);
    if reminders_due > deadlines.nags_sent {
        Due::Nag(reminders_due)
    } else {
        Due::Nothing
    }
}

/// When the loss on time comes if nobody moves and no new vacation starts.
pub fn forfeit_at(
    deadlines: &TurnDeadlines,
    vacations: &[Vacation],
    now: OffsetDateTime,
) -> OffsetDateTime {
    let remaining =
        days(deadlines.forfeit_days) - running_time(deadlines.last_turn_at, now, vacations);
    let mut at = now + remaining.max(Duration::ZERO);
    // Vacation time still ahead pushes the deadline back.
    for vacation in vacations {
        let start = vacation.starts_at.max(now);
        if vacation.ends_at > start && start < at {
            at += vacation.ends_at - start;
        }
    }
    at
}

/// When the next reminder comes if nobody moves and no new vacation
/// starts: after each `nag_days` of running clock. `None` when that is
/// beyond the calendar.
pub fn next_nag_at(
    deadlines: &TurnDeadlines,
    vacations: &[Vacation],
    now: OffsetDateTime,
) -> Option<OffsetDateTime> {
    let every = days(deadlines.nag_days.max(1));
    let running = running_time(deadlines.last_turn_at, now, vacations);
    let passed = running.whole_seconds() / every.whole_seconds().max(1);
    let next = every.checked_mul(i32::try_from(passed.checked_add(1)?).ok()?)?;
    let mut at = now.checked_add(next.checked_sub(running)?.max(Duration::ZERO))?;
    for vacation in vacations {
        let start = vacation.starts_at.max(now);
        if vacation.ends_at > start && start < at {
            at = at.checked_add(vacation.ends_at - start)?;
        }
    }
    Some(at)
}

/// The part of `vacations` a board with a vacation allowance honours:
/// vacation time from `since` on (the start of its event), merged where
/// vacations overlap, up to `allowance_days` in all; the rest of a
/// vacation does not stop that board's clock.
pub fn within_allowance(
    vacations: &[Vacation],
    since: OffsetDateTime,
    allowance_days: u32,
) -> Vec<Vacation> {
    let mut sorted: Vec<&Vacation> = vacations.iter().collect();
    sorted.sort_by_key(|v| v.starts_at);
    let mut left = days(allowance_days);
    let mut covered_until = since;
    let mut honoured = Vec::new();
    for vacation in sorted {
        if left <= Duration::ZERO {
            break;
        }
        let start = vacation.starts_at.max(covered_until);
        if vacation.ends_at <= start {
            continue;
        }
        let end = vacation.ends_at.min(start + left);
        left -= end - start;
        covered_until = end;
        honoured.push(Vacation {
            starts_at: start,
            ends_at: end,
        });
    }
    honoured
}

/// A board's reminder and loss-on-time days (nag, forfeit) from the
/// options `--days`, `--forfeit` and `--nag`. `--days=N` is the per-turn
/// allowance: a turn that takes longer loses on time, as `--forfeit=N`
/// says; the reminders then come at a third of it. Without either, the
/// loss on time comes after `default_forfeit` days and the reminder after
/// `default_nag(forfeit)`.
pub fn turn_deadlines(
    days_per_turn: Option<u32>,
    forfeit: Option<u32>,
    nag: Option<u32>,
    default_forfeit: u32,
    default_nag: impl FnOnce(u32) -> u32,
) -> Result<(u32, u32), String> {
    let forfeit_days = match (forfeit, days_per_turn) {
        (Some(_), Some(_)) => {
            return Err(
                "give --days or --forfeit, not both: they both set the time for a turn".into(),
            );
        }
        (Some(days), None) | (None, Some(days)) => days,
        (None, None) => default_forfeit,
    };
    let nag_days = nag.unwrap_or_else(|| match days_per_turn {
        Some(days) => (days / 3).max(1),
        None => default_nag(forfeit_days),
    });
    if forfeit_days < nag_days {
        return Err(format!(
            "--forfeit={forfeit_days} must not be shorter than the reminder time of {}",
            crate::render::count(nag_days, "day")
        ));
    }
    Ok((nag_days, forfeit_days))
}

fn days(n: u32) -> Duration {
    Duration::days(i64::from(n))
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;
    use crate::domain::{BoardNumber, PlayerId};

    fn deadlines(nags_sent: u32) -> TurnDeadlines {
        TurnDeadlines {
            board: BoardNumber(101),
            to_move: Some(PlayerId(1)),
            last_turn_at: datetime!(2026-03-01 12:00 UTC),
            nag_days: 7,
            forfeit_days: 21,
            nags_sent,
            draw_offered_at: None,
        }
    }

    #[test]
    fn reminders_every_nag_interval_then_the_loss_on_time() {
        let start = datetime!(2026-03-01 12:00 UTC);
        assert_eq!(
            due(&deadlines(0), start + Duration::days(6), &[]),
            Due::Nothing
        );
        assert_eq!(
            due(&deadlines(0), start + Duration::days(8), &[]),
            Due::Nag(1)
        );
        assert_eq!(
            due(&deadlines(1), start + Duration::days(8), &[]),
            Due::Nothing,
            "never twice"
        );
        assert_eq!(
            due(&deadlines(1), start + Duration::days(14), &[]),
            Due::Nag(2)
        );
        assert_eq!(
            due(&deadlines(2), start + Duration::days(22), &[]),
            Due::LossOnTime
        );
    }

    #[test]
    fn a_vacation_stops_the_clock() {
        let start = datetime!(2026-03-01 12:00 UTC);
        let away = Vacation {
            starts_at: start + Duration::days(2),
            ends_at: start + Duration::days(12),
        };
        assert_eq!(
            running_time(start, start + Duration::days(15), &[away]),
            Duration::days(5)
        );
        assert_eq!(
            due(&deadlines(0), start + Duration::days(15), &[away]),
            Due::Nothing,
            "5 days of clock"
        );
        assert_eq!(
            due(&deadlines(0), start + Duration::days(18), &[away]),
            Due::Nag(1)
        );
        assert_eq!(
            forfeit_at(&deadlines(0), &[away], start + Duration::days(1)),
            start + Duration::days(31)
        );
        // Overlapping vacations count once.
        let again = Vacation {
            starts_at: start + Duration::days(10),
            ends_at: start + Duration::days(14),
        };
        assert_eq!(
            running_time(start, start + Duration::days(15), &[away, again]),
            Duration::days(3)
        );
    }

    #[test]
    fn an_allowance_honours_vacation_days_since_the_event_started_up_to_its_count() {
        let start = datetime!(2026-03-01 12:00 UTC);
        let before = Vacation {
            starts_at: start - Duration::days(5),
            ends_at: start + Duration::days(1),
        };
        let long = Vacation {
            starts_at: start + Duration::days(3),
            ends_at: start + Duration::days(20),
        };
        let honoured = within_allowance(&[long, before], start, 4);
        assert_eq!(
            honoured,
            vec![
                Vacation {
                    starts_at: start,
                    ends_at: start + Duration::days(1)
                },
                Vacation {
                    starts_at: start + Duration::days(3),
                    ends_at: start + Duration::days(6)
                },
            ],
            "1 day of the first (from the start), 3 of the second"
        );
        assert!(within_allowance(&[long], start, 0).is_empty());
    }

    #[test]
    fn an_unanswered_draw_offer_is_accepted_at_the_forfeit_time() {
        let mut offered = deadlines(0);
        offered.draw_offered_at = Some(datetime!(2026-03-02 12:00 UTC));
        assert_eq!(
            due(&offered, datetime!(2026-03-23 12:00 UTC), &[]),
            Due::DrawByTimeout
        );
    }
}
