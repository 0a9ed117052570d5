//! A game's clock, computed from what the server stores: when the game
//! started, the turns (and take-backs and extensions) in the order they
//! were stored, and the vacations that stop each player's clock.

use std::fmt;

use time::{Duration, OffsetDateTime};

use crate::TimeControl;
use crate::days::{Days, describe, readable};
use crate::reminders::Reminders;

/// The most extra days `extend` may give in one game, both players'
/// grants together.
pub const MAX_EXTENSION_DAYS: Days = Days::from_hundredths(30 * 100);

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "White",
            Side::Black => "Black",
        })
    }
}

/// A vacation: the player's clock stops from `starts_at` to `ends_at`.
/// Intervals may overlap and come in any order; an empty or reversed one
/// stops nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub starts_at: OffsetDateTime,
    pub ends_at: OffsetDateTime,
}

/// Something stored that moves the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The player to move stored a turn: their clock stops, the
    /// opponent's starts.
    Turn { at: OffsetDateTime },
    /// The last turn was taken back (an accepted undo): the player who
    /// made it is to move again. The time they used stays used, the turn
    /// counts no more, and a bank loses what that turn added to it; with
    /// days per turn, the turn starts afresh.
    TakeBack { at: OffsetDateTime },
    /// `days` more for the player `to` (the `extend` command): with days
    /// per turn for the turn in progress, or their next turn if the
    /// opponent is to move; otherwise for the rest of the game.
    Extend {
        at: OffsetDateTime,
        to: Side,
        days: Days,
    },
}

impl Event {
    pub fn at(&self) -> OffsetDateTime {
        match *self {
            Event::Turn { at } | Event::TakeBack { at } | Event::Extend { at, .. } => at,
        }
    }
}

/// What a clock is computed from: what the service stores of a game.
#[derive(Clone, Copy, Debug)]
pub struct History<'a> {
    pub control: TimeControl,
    /// When the first clock started: the game was created or its challenge
    /// accepted.
    pub started_at: OffsetDateTime,
    /// Whose clock started then: White in a game begun with a clock. A
    /// board stored before clocks reads as a game begun at its last turn
    /// with the player then to move, with the days of its turns as the
    /// control ([`TimeControl::per_turn_days`]): its deadline is what it
    /// was.
    pub first: Side,
    /// In the order they were stored. A time earlier than the one before
    /// (a server clock set back) counts as that one.
    pub events: &'a [Event],
    /// The vacations that stop White's clock (the service applies an
    /// event's vacation allowance before).
    pub white_away: &'a [Interval],
    /// The vacations that stop Black's clock.
    pub black_away: &'a [Interval],
}

/// A time beyond what the clock can count (the year 9999, or lengths of
/// billions of years): only hand-made controls far outside the bounds, or
/// a corrupt store, get here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeyondCalendar;

impl fmt::Display for BeyondCalendar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the clock reaches beyond the calendar")
    }
}

impl std::error::Error for BeyondCalendar {}

/// When a player's time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RanOut {
    pub side: Side,
    pub at: OffsetDateTime,
}

/// The current block of an `N/D` control for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Turns still to make in the block (1 to N).
    pub turns_left: u32,
    /// When the block's time runs out, for the player to move (if nothing
    /// comes and no new vacation starts); `None` for the other, whose
    /// clock is stopped.
    pub by: Option<OffsetDateTime>,
}

/// A reminder, by what it waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reminder {
    /// This share (percent) of the time the player had for the turn is
    /// left.
    ShareLeft(u8),
    /// This much time is left.
    DaysLeft(Days),
}

/// The reminders already sent for a board, as the service keeps them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reminded {
    /// Reminders counted for the turn in progress (the count [`Due::Remind`]
    /// gives; 0 at each new turn).
    pub this_turn: u32,
    /// When the board last sent a reminder, for the rule of one a day.
    pub last_at: Option<OffsetDateTime>,
}

/// What a board's clock calls for at the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    Nothing,
    /// Remind the player to move; record `this_turn` reminders as counted
    /// (more than one when a sweep was missed: only the most pressing one
    /// is sent).
    Remind {
        reminder: Reminder,
        this_turn: u32,
    },
    /// The player to move lost on time, at `at`.
    LossOnTime {
        side: Side,
        at: OffsetDateTime,
    },
}

/// Why `extend` is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtendError {
    /// Zero days give nothing.
    Nothing,
    /// More than the game has left of [`MAX_EXTENSION_DAYS`].
    TooMany { asked: Days, room: Days },
    /// The player to move has no time left: the game is lost on time.
    RanOut(RanOut),
}

impl fmt::Display for ExtendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtendError::Nothing => f.write_str("give at least 0.01 days, e.g. 2"),
            ExtendError::TooMany { asked, room } if *room == Days::ZERO => write!(
                f,
                "{asked} days is too many: a game gets at most {MAX_EXTENSION_DAYS} extra days, and this one had them all"
            ),
            ExtendError::TooMany { asked, room } => write!(
                f,
                "{asked} days is too many: a game gets at most {MAX_EXTENSION_DAYS} extra days in all; give at most {room}"
            ),
            ExtendError::RanOut(ran_out) => write!(
                f,
                "{}'s time ran out at {}: the game is lost on time",
                ran_out.side,
                readable(ran_out.at)
            ),
        }
    }
}

impl std::error::Error for ExtendError {}

/// A game's clock at one instant: both players' time left, who is to
/// move and when they lose on time, and what reminders are due.
///
/// Instants are [`OffsetDateTime`]s and lengths [`Duration`]s of the
/// `time` crate, to the second and below as stored; days are exact
/// (see [`Days`]). Every sum is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    now: OffsetDateTime,
    to_move: Side,
    turn_started_at: OffsetDateTime,
    left: [Duration; 2],
    made: [u32; 2],
    reference: Duration,
    loses_at: OffsetDateTime,
    ran_out: Option<RanOut>,
    extended: Days,
    away: Vec<Interval>,
}

impl History<'_> {
    /// The clock as of `now` (or of the last event, if that is later).
    pub fn clock_at(&self, now: OffsetDateTime) -> Result<Clock, BeyondCalendar> {
        let mut replay = Replay::new(self)?;
        for event in self.events {
            replay.apply(event)?;
        }
        let now = now.max(replay.mark);
        replay.advance(now)?;
        let mover = replay.to_move;
        let left = [replay.left(Side::White)?, replay.left(Side::Black)?];
        let away = std::mem::take(&mut replay.sides[mover.index()].away);
        let loses_at = match replay.out_at {
            Some(at) if left[mover.index()] <= Duration::ZERO => at,
            _ => after_running(now, left[mover.index()], &away)?,
        };
        Ok(Clock {
            control: self.control,
            now,
            to_move: mover,
            turn_started_at: replay.turn_started_at,
            left,
            made: [replay.sides[0].made, replay.sides[1].made],
            reference: replay.reference,
            loses_at,
            ran_out: replay.ran_out,
            extended: replay.extended,
            away,
        })
    }
}

impl Clock {
    /// The instant the clock was computed for.
    pub fn now(&self) -> OffsetDateTime {
        self.now
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// When the turn in progress started (the opponent's turn was stored).
    pub fn turn_started_at(&self) -> OffsetDateTime {
        self.turn_started_at
    }

    /// The time `side` has left now; zero or less once it ran out. With
    /// days per turn, for the player not to move: the time of their next
    /// turn.
    pub fn left(&self, side: Side) -> Duration {
        self.left[side.index()]
    }

    /// The turns `side` has made.
    pub fn turns_made(&self, side: Side) -> u32 {
        self.made[side.index()]
    }

    /// The exact instant the player to move loses on time if no turn
    /// comes and no new vacation starts (vacations known now are counted);
    /// in the past once their time ran out.
    pub fn loses_at(&self) -> OffsetDateTime {
        self.loses_at
    }

    /// The first time a player's time ran out in this game, even if they
    /// then stored a turn before the sweep saw it (the service decides
    /// what a late turn is worth; [`Clock::due`] looks at the player to
    /// move only).
    pub fn ran_out(&self) -> Option<RanOut> {
        self.ran_out
    }

    /// For `N/D`: `side`'s turns still to make in the current block, and
    /// by when.
    pub fn block(&self, side: Side) -> Option<Block> {
        let TimeControl::Blocks { turns, .. } = self.control else {
            return None;
        };
        let turns = turns.max(1);
        Some(Block {
            turns_left: turns - self.made[side.index()] % turns,
            by: (side == self.to_move).then_some(self.loses_at),
        })
    }

    /// The extra days `extend` may still give in this game.
    pub fn extension_room(&self) -> Days {
        MAX_EXTENSION_DAYS
            .checked_sub(self.extended)
            .unwrap_or(Days::ZERO)
    }

    /// Whether `extend` may give `days` more now.
    pub fn check_extension(&self, days: Days) -> Result<(), ExtendError> {
        if days == Days::ZERO {
            return Err(ExtendError::Nothing);
        }
        if days > self.extension_room() {
            return Err(ExtendError::TooMany {
                asked: days,
                room: self.extension_room(),
            });
        }
        if self.left(self.to_move) <= Duration::ZERO {
            return Err(ExtendError::RanOut(RanOut {
                side: self.to_move,
                at: self.loses_at,
            }));
        }
        Ok(())
    }

    /// What the sweep should do for this board now: the loss on time once
    /// the player to move has no time left; otherwise a reminder once its
    /// time has come, at most one a day.
    ///
    /// A reminder's time comes when the time left falls to its threshold
    /// ([`Reminders`]); one whose threshold was passed already when the
    /// turn started is not sent (the board mail said the time left).
    pub fn due(&self, reminders: &Reminders, reminded: &Reminded) -> Due {
        let mover = self.to_move;
        if self.left(mover) <= Duration::ZERO {
            return Due::LossOnTime {
                side: mover,
                at: self.loses_at,
            };
        }
        let thresholds = self.thresholds(reminders);
        let passed = thresholds
            .iter()
            .take_while(|(_, threshold)| self.left(mover) <= *threshold)
            .count();
        let counted = usize::try_from(reminded.this_turn).unwrap_or(usize::MAX);
        if passed <= counted || !self.a_day_since(reminded.last_at) {
            return Due::Nothing;
        }
        // The most pressing of those passed: the last one reached.
        match thresholds.get(passed - 1) {
            Some(&(reminder, _)) => Due::Remind {
                reminder,
                this_turn: u32::try_from(passed).unwrap_or(u32::MAX),
            },
            None => Due::Nothing,
        }
    }

    /// When [`Clock::due`] next calls for something if no turn comes and no
    /// new vacation starts: for a service that keeps it with the board, so
    /// the sweep reads only the boards that are due. Never before now.
    pub fn next_due(
        &self,
        reminders: &Reminders,
        reminded: &Reminded,
    ) -> Result<OffsetDateTime, BeyondCalendar> {
        let mut next = self.loses_at.max(self.now);
        let not_before = match reminded.last_at {
            Some(last) => last.checked_add(Duration::DAY).ok_or(BeyondCalendar)?,
            None => self.now,
        };
        let counted = usize::try_from(reminded.this_turn).unwrap_or(usize::MAX);
        let left = self.left(self.to_move);
        for &(_, threshold) in self.thresholds(reminders).iter().skip(counted) {
            let reached = match left.checked_sub(threshold) {
                Some(before) if before > Duration::ZERO => {
                    after_running(self.now, before, &self.away)?
                }
                _ => self.now,
            };
            next = next.min(reached.max(not_before).max(self.now));
        }
        Ok(next)
    }

    /// The thresholds of time left at which reminders come this turn, the
    /// first to be reached first; only those below the time the turn
    /// started with.
    fn thresholds(&self, reminders: &Reminders) -> Vec<(Reminder, Duration)> {
        let share = reminders.share_left.map(|percent| {
            let seconds = self
                .reference
                .whole_seconds()
                .saturating_mul(i64::from(percent))
                / 100;
            (Reminder::ShareLeft(percent), Duration::seconds(seconds))
        });
        let days = reminders
            .days_left
            .map(|days| (Reminder::DaysLeft(days), days.duration()));
        let mut thresholds: Vec<_> = [share, days]
            .into_iter()
            .flatten()
            .filter(|&(_, threshold)| threshold > Duration::ZERO && threshold < self.reference)
            .collect();
        thresholds.sort_by_key(|&(_, threshold)| std::cmp::Reverse(threshold));
        thresholds
    }

    fn a_day_since(&self, last: Option<OffsetDateTime>) -> bool {
        last.is_none_or(|last| self.now - last >= Duration::DAY)
    }

    /// One player's clock for the board mail, e.g. `12 days 4 hours left`,
    /// `3 turns by 2026-12-20 18:00 UTC (12 days 4 hours left)`.
    pub fn line(&self, side: Side) -> String {
        let left = self.left(side);
        let moving = side == self.to_move;
        if moving && left <= Duration::ZERO {
            return format!("time ran out at {}", readable(self.loses_at));
        }
        let until = readable(self.loses_at);
        match (self.control, self.block(side)) {
            (_, Some(block)) => {
                let turns = match block.turns_left {
                    1 => "1 turn".to_string(),
                    n => format!("{n} turns"),
                };
                if moving {
                    format!("{turns} by {until} ({} left)", describe(left))
                } else {
                    format!("{turns} in {}", describe(left))
                }
            }
            (TimeControl::PerTurn { .. }, None) if !moving => {
                format!("{} for the next turn", describe(left))
            }
            _ if moving => format!("{} left, until {until}", describe(left)),
            _ => format!("{} left", describe(left)),
        }
    }

    /// Both players' clocks for the board mail, White's first:
    /// `White: 12 days 4 hours left`, `Black: 3 turns by 2026-12-20 18:00
    /// UTC (5 days left)`.
    pub fn lines(&self) -> [String; 2] {
        [Side::White, Side::Black].map(|side| format!("{side}: {}", self.line(side)))
    }
}

/// One player's side of the replay.
#[derive(Default)]
struct SideState {
    /// Turns made.
    made: u32,
    /// Own thinking time used in the whole game, up to the replay's mark
    /// for the player to move.
    used: Duration,
    /// Time left is `allowance - used`.
    allowance: Duration,
    /// Days per turn: extra time given for the next turn.
    pending: Duration,
    /// `N/D`: extra time given for the rest of the game.
    extended: Duration,
    /// A bank: what each turn made added (a take-back removes it).
    credits: Vec<Duration>,
    /// The vacations that stop this player's clock, sorted and merged.
    away: Vec<Interval>,
}

/// The clock replayed event by event.
struct Replay {
    control: TimeControl,
    sides: [SideState; 2],
    to_move: Side,
    /// The mover's used time is counted up to here.
    mark: OffsetDateTime,
    turn_started_at: OffsetDateTime,
    /// The mover's time left when the turn started, plus what was given
    /// them since: the "time they had" for reminders by share.
    reference: Duration,
    /// When the mover's time ran out this turn.
    out_at: Option<OffsetDateTime>,
    ran_out: Option<RanOut>,
    extended: Days,
}

impl Replay {
    fn new(history: &History<'_>) -> Result<Replay, BeyondCalendar> {
        let mut sides = [SideState::default(), SideState::default()];
        sides[0].away = merged(history.white_away);
        sides[1].away = merged(history.black_away);
        let mut replay = Replay {
            control: history.control,
            sides,
            to_move: history.first,
            mark: history.started_at,
            turn_started_at: history.started_at,
            reference: Duration::ZERO,
            out_at: None,
            ran_out: None,
            extended: Days::ZERO,
        };
        for side in [Side::White, Side::Black] {
            replay.sides[side.index()].allowance = match history.control {
                TimeControl::PerTurn { days } => days.duration(),
                TimeControl::Bank { bank, .. } => bank.duration(),
                TimeControl::Blocks { .. } => replay.blocks_allowance(side)?,
            };
        }
        replay.reference = replay.left(history.first)?;
        Ok(replay)
    }

    fn side(&mut self, side: Side) -> &mut SideState {
        &mut self.sides[side.index()]
    }

    fn left(&self, side: Side) -> Result<Duration, BeyondCalendar> {
        let state = &self.sides[side.index()];
        state
            .allowance
            .checked_sub(state.used)
            .ok_or(BeyondCalendar)
    }

    fn apply(&mut self, event: &Event) -> Result<(), BeyondCalendar> {
        let at = event.at().max(self.mark);
        match *event {
            Event::Turn { .. } => {
                self.advance(at)?;
                let mover = self.to_move;
                self.side(mover).made = self.sides[mover.index()].made.saturating_add(1);
                self.after_turn(mover)?;
                self.hand_over(mover.opponent(), at)
            }
            Event::TakeBack { .. } => {
                let last = self.to_move.opponent();
                if self.sides[last.index()].made == 0 {
                    // Nothing to take back: the service never stores this.
                    return Ok(());
                }
                self.advance(at)?;
                let stopped = self.to_move;
                if let TimeControl::PerTurn { .. } = self.control {
                    // Its turn is cut short: the next one is a fresh one.
                    self.refresh_turn(stopped)?;
                }
                let state = self.side(last);
                state.made -= 1;
                match self.control {
                    TimeControl::PerTurn { .. } => self.refresh_turn(last)?,
                    TimeControl::Blocks { .. } => {
                        self.side(last).allowance = self.blocks_allowance(last)?;
                    }
                    TimeControl::Bank { .. } => {
                        let state = self.side(last);
                        let credit = state.credits.pop().unwrap_or(Duration::ZERO);
                        state.allowance =
                            state.allowance.checked_sub(credit).ok_or(BeyondCalendar)?;
                    }
                }
                self.hand_over(last, at)
            }
            Event::Extend { to, days, .. } => {
                self.advance(at)?;
                self.extended = self
                    .extended
                    .checked_add(days)
                    .unwrap_or(Days::from_hundredths(u32::MAX));
                let more = days.duration();
                let moving = to == self.to_move;
                let control = self.control;
                let state = self.side(to);
                state.allowance = state.allowance.checked_add(more).ok_or(BeyondCalendar)?;
                match control {
                    TimeControl::PerTurn { .. } if !moving => {
                        state.pending = state.pending.checked_add(more).ok_or(BeyondCalendar)?;
                    }
                    TimeControl::Blocks { .. } => {
                        state.extended = state.extended.checked_add(more).ok_or(BeyondCalendar)?;
                    }
                    _ => {}
                }
                if moving {
                    self.reference = self.reference.checked_add(more).ok_or(BeyondCalendar)?;
                }
                Ok(())
            }
        }
    }

    /// Runs the mover's clock up to `at`, noting when their time runs out.
    fn advance(&mut self, at: OffsetDateTime) -> Result<(), BeyondCalendar> {
        let mover = self.to_move;
        let left = self.left(mover)?;
        let state = &self.sides[mover.index()];
        let ran = running(self.mark, at, &state.away);
        // Time given after it ran out revives the clock (the service
        // refuses that, see `Clock::check_extension`); the first run-out
        // stays in `ran_out`.
        self.out_at = if left <= Duration::ZERO {
            Some(self.out_at.unwrap_or(self.mark))
        } else if ran >= left {
            Some(after_running(self.mark, left, &state.away)?)
        } else {
            None
        };
        if let Some(at) = self.out_at {
            self.ran_out.get_or_insert(RanOut { side: mover, at });
        }
        let state = self.side(mover);
        state.used = state.used.checked_add(ran).ok_or(BeyondCalendar)?;
        self.mark = at;
        Ok(())
    }

    /// What a turn just made by `side` gives them.
    fn after_turn(&mut self, side: Side) -> Result<(), BeyondCalendar> {
        match self.control {
            TimeControl::PerTurn { .. } => self.refresh_turn(side),
            TimeControl::Blocks { .. } => {
                self.side(side).allowance = self.blocks_allowance(side)?;
                Ok(())
            }
            TimeControl::Bank { increment, cap, .. } => {
                let left = self.left(side)?;
                let increment = increment.duration();
                // The cap limits what the increment adds; it never takes
                // away what extensions put above it.
                let credit = match cap {
                    Some(cap) => cap
                        .duration()
                        .checked_sub(left)
                        .ok_or(BeyondCalendar)?
                        .clamp(Duration::ZERO, increment),
                    None => increment,
                };
                let state = self.side(side);
                state.credits.push(credit);
                state.allowance = state.allowance.checked_add(credit).ok_or(BeyondCalendar)?;
                Ok(())
            }
        }
    }

    /// Days per turn: `side`'s next turn gets the days of a turn and what
    /// was given for it.
    fn refresh_turn(&mut self, side: Side) -> Result<(), BeyondCalendar> {
        let TimeControl::PerTurn { days } = self.control else {
            return Ok(());
        };
        let state = self.side(side);
        state.allowance = state
            .used
            .checked_add(days.duration())
            .and_then(|a| a.checked_add(state.pending))
            .ok_or(BeyondCalendar)?;
        Ok(())
    }

    /// `N/D`: `side` must have used no more than D for each block begun.
    fn blocks_allowance(&self, side: Side) -> Result<Duration, BeyondCalendar> {
        let TimeControl::Blocks { turns, days } = self.control else {
            return Ok(self.sides[side.index()].allowance);
        };
        let state = &self.sides[side.index()];
        let blocks = i64::from(state.made / turns.max(1)) + 1;
        days.duration()
            .whole_seconds()
            .checked_mul(blocks)
            .map(Duration::seconds)
            .and_then(|allowance| allowance.checked_add(state.extended))
            .ok_or(BeyondCalendar)
    }

    fn hand_over(&mut self, to: Side, at: OffsetDateTime) -> Result<(), BeyondCalendar> {
        // Days per turn: what was given for the next turn is in its
        // allowance now.
        self.side(to).pending = Duration::ZERO;
        self.to_move = to;
        self.turn_started_at = at;
        self.mark = at;
        self.out_at = None;
        self.reference = self.left(to)?;
        Ok(())
    }
}

/// `intervals` sorted, without empty ones, overlapping ones merged.
fn merged(intervals: &[Interval]) -> Vec<Interval> {
    let mut sorted: Vec<Interval> = intervals
        .iter()
        .copied()
        .filter(|v| v.ends_at > v.starts_at)
        .collect();
    sorted.sort_by_key(|v| v.starts_at);
    let mut merged: Vec<Interval> = Vec::with_capacity(sorted.len());
    for interval in sorted {
        match merged.last_mut() {
            Some(last) if interval.starts_at <= last.ends_at => {
                last.ends_at = last.ends_at.max(interval.ends_at);
            }
            _ => merged.push(interval),
        }
    }
    merged
}

/// How long a clock runs from `from` to `to`, stopped during `away`
/// (sorted and merged).
fn running(from: OffsetDateTime, to: OffsetDateTime, away: &[Interval]) -> Duration {
    if to <= from {
        return Duration::ZERO;
    }
    let paused: Duration = away
        .iter()
        .map(|v| {
            let (start, end) = (v.starts_at.max(from), v.ends_at.min(to));
            if end > start {
                end - start
            } else {
                Duration::ZERO
            }
        })
        .sum();
    (to - from) - paused
}

/// The instant a clock started at `from` has run `length`, stopped during
/// `away` (sorted and merged).
fn after_running(
    from: OffsetDateTime,
    length: Duration,
    away: &[Interval],
) -> Result<OffsetDateTime, BeyondCalendar> {
    let mut at = from;
    let mut still = length.max(Duration::ZERO);
    for vacation in away {
        if vacation.ends_at <= at {
            continue;
        }
        let start = vacation.starts_at.max(at);
        let before = start - at;
        if before >= still {
            break;
        }
        still -= before;
        at = vacation.ends_at;
    }
    at.checked_add(still).ok_or(BeyondCalendar)
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn overlapping_and_reversed_vacations_count_once() {
        let t = datetime!(2026-03-01 00:00 UTC);
        let d = Duration::days;
        let away = merged(&[
            Interval {
                starts_at: t + d(10),
                ends_at: t + d(14),
            },
            Interval {
                starts_at: t + d(2),
                ends_at: t + d(12),
            },
            Interval {
                starts_at: t + d(20),
                ends_at: t + d(19),
            },
        ]);
        assert_eq!(
            away,
            vec![Interval {
                starts_at: t + d(2),
                ends_at: t + d(14)
            }]
        );
        assert_eq!(running(t, t + d(15), &away), d(3));
        assert_eq!(running(t + d(3), t + d(4), &away), Duration::ZERO);
        assert_eq!(after_running(t, d(3), &away), Ok(t + d(15)));
        assert_eq!(
            after_running(t, d(2), &away),
            Ok(t + d(2)),
            "out as the vacation starts"
        );
        assert_eq!(after_running(t + d(5), d(1), &away), Ok(t + d(15)));
    }
}
