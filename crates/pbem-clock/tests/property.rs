//! A property of every clock: time left never goes up, except by what a
//! turn adds (an increment, a new block, a new turn's days), by an
//! extension, and, with days per turn, by a turn taken back (it starts
//! afresh); a vacation only holds it.

use pbem_clock::{Clock, Days, Event, History, Interval, Side, TimeControl};
use proptest::prelude::*;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const START: OffsetDateTime = datetime!(2026-03-01 00:00 UTC);

fn hundredths(n: u32) -> Duration {
    Days::from_hundredths(n).duration()
}

fn controls() -> impl Strategy<Value = TimeControl> {
    let days = || (25u32..=3000).prop_map(Days::from_hundredths);
    prop_oneof![
        days().prop_map(|days| TimeControl::PerTurn { days }),
        (1u32..=5, days()).prop_map(|(turns, days)| TimeControl::Blocks { turns, days }),
        (days(), 0u32..=300, proptest::option::of(0u32..=1000)).prop_map(
            |(bank, increment, room)| TimeControl::Bank {
                bank,
                increment: Days::from_hundredths(increment),
                cap: room.map(|room| Days::from_hundredths(bank.hundredths() + room)),
            }
        ),
    ]
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Turn,
    TakeBack,
    Extend(Side, u32),
}

fn steps() -> impl Strategy<Value = Vec<(u32, Step)>> {
    let side = prop_oneof![Just(Side::White), Just(Side::Black)];
    let step = prop_oneof![
        6 => Just(Step::Turn),
        1 => Just(Step::TakeBack),
        1 => (side, 1u32..=300).prop_map(|(to, days)| Step::Extend(to, days)),
    ];
    proptest::collection::vec((0u32..=800, step), 0..24)
}

fn vacations() -> impl Strategy<Value = Vec<Interval>> {
    proptest::collection::vec(
        (0u32..=8000, 0u32..=600).prop_map(|(from, length)| Interval {
            starts_at: START + hundredths(from),
            ends_at: START + hundredths(from + length),
        }),
        0..4,
    )
}

struct Game {
    control: TimeControl,
    first: Side,
    events: Vec<Event>,
    white_away: Vec<Interval>,
    black_away: Vec<Interval>,
}

impl Game {
    /// The clock at `now` with the first `stored` events.
    fn clock(&self, stored: usize, now: OffsetDateTime) -> Clock {
        History {
            control: self.control,
            started_at: START,
            first: self.first,
            events: &self.events[..stored],
            white_away: &self.white_away,
            black_away: &self.black_away,
        }
        .clock_at(now)
        .expect("within the calendar")
    }

    fn away(&self, side: Side) -> &[Interval] {
        match side {
            Side::White => &self.white_away,
            Side::Black => &self.black_away,
        }
    }
}

fn game(
    control: TimeControl,
    first: Side,
    steps: &[(u32, Step)],
    white_away: Vec<Interval>,
    black_away: Vec<Interval>,
) -> Game {
    let mut at = START;
    let events = steps
        .iter()
        .map(|&(gap, step)| {
            at += hundredths(gap);
            match step {
                Step::Turn => Event::Turn { at },
                Step::TakeBack => Event::TakeBack { at },
                Step::Extend(to, days) => Event::Extend {
                    at,
                    to,
                    days: Days::from_hundredths(days),
                },
            }
        })
        .collect();
    Game {
        control,
        first,
        events,
        white_away,
        black_away,
    }
}

proptest! {
    #[test]
    fn time_left_goes_up_only_by_what_a_turn_or_an_extension_gives(
        control in controls(),
        black_first in any::<bool>(),
        steps in steps(),
        white_away in vacations(),
        black_away in vacations(),
        samples in proptest::collection::vec((0u32..=100, 0u32..=100), 1..4),
    ) {
        let first = if black_first { Side::Black } else { Side::White };
        let game = game(control, first, &steps, white_away, black_away);
        let sides = [Side::White, Side::Black];
        // Between two events (and after the last): the player to move's
        // time runs down, at most as fast as the calendar, not at all
        // while they are away; the other's stands still.
        for stored in 0..=game.events.len() {
            let from = game.events[..stored].last().map_or(START, Event::at);
            let until = game.events.get(stored).map_or(from + Duration::days(10), Event::at);
            let span = until - from;
            for &(a, b) in &samples {
                let (a, b) = (a.min(b), a.max(b));
                let t1 = from + span * a / 100;
                let t2 = from + span * b / 100;
                let (early, late) = (game.clock(stored, t1), game.clock(stored, t2));
                let mover = early.to_move();
                let spent = early.left(mover) - late.left(mover);
                prop_assert!(spent >= Duration::ZERO, "{control}: time left went up by itself");
                prop_assert!(spent <= t2 - t1, "{control}: ran faster than the calendar");
                let away = game.away(mover).iter().any(|v| v.starts_at <= t1 && t2 <= v.ends_at);
                if away {
                    prop_assert_eq!(spent, Duration::ZERO, "{}: ran during a vacation", control);
                }
                prop_assert_eq!(early.left(mover.opponent()), late.left(mover.opponent()));
                prop_assert!(late.left(mover) > Duration::ZERO || late.loses_at() <= t2);
            }
        }
        // At each event: only what it gives.
        for (index, event) in game.events.iter().enumerate() {
            let at = event.at();
            let (before, after) = (game.clock(index, at), game.clock(index + 1, at));
            let mover = before.to_move();
            let gained = |side: Side| after.left(side) - before.left(side);
            match (*event, control) {
                (Event::Turn { .. }, _) => {
                    prop_assert_eq!(gained(mover.opponent()), Duration::ZERO);
                    let gain = gained(mover);
                    match control {
                        TimeControl::PerTurn { days } => {
                            prop_assert_eq!(after.left(mover), days.duration());
                        }
                        TimeControl::Blocks { turns, days } => {
                            let new_block = after.turns_made(mover) % turns == 0;
                            let expected = if new_block { days.duration() } else { Duration::ZERO };
                            prop_assert_eq!(gain, expected);
                        }
                        TimeControl::Bank { increment, cap, .. } => {
                            prop_assert!(gain >= Duration::ZERO && gain <= increment.duration());
                            if let Some(cap) = cap {
                                prop_assert!(gain == Duration::ZERO || after.left(mover) <= cap.duration());
                            }
                        }
                    }
                }
                (Event::Extend { to, days, .. }, _) => {
                    prop_assert_eq!(gained(to), days.duration());
                    prop_assert_eq!(gained(to.opponent()), Duration::ZERO);
                }
                (Event::TakeBack { .. }, TimeControl::PerTurn { .. }) => {
                    // Both turns start afresh.
                    prop_assert!(gained(mover.opponent()) == Duration::ZERO);
                }
                (Event::TakeBack { .. }, _) => {
                    for side in sides {
                        prop_assert!(gained(side) <= Duration::ZERO, "{control}: a take-back gave time");
                    }
                }
            }
        }
    }

    #[test]
    fn every_control_prints_as_it_reads(control in controls()) {
        let read = control.to_string().parse::<TimeControl>();
        match control {
            // A cap with nothing added is refused (it says nothing).
            TimeControl::Bank { increment, cap: Some(_), .. } if increment == Days::ZERO => {
                prop_assert!(read.is_err());
            }
            _ => prop_assert_eq!(read, Ok(control)),
        }
    }
}

/// Any instant the calendar holds, from the year -9999 to 9999.
fn instants() -> impl Strategy<Value = OffsetDateTime> {
    let (first, last) = (
        datetime!(-9999-01-01 00:00 UTC).unix_timestamp(),
        datetime!(9999-12-31 23:59 UTC).unix_timestamp(),
    );
    (first..=last).prop_map(|seconds| {
        OffsetDateTime::from_unix_timestamp(seconds).expect("within the calendar")
    })
}

proptest! {
    /// Whatever is stored, however absurd (a hand-made control far out of
    /// bounds, times at the ends of the calendar), the clock answers or
    /// says it is beyond the calendar: it never panics.
    #[test]
    fn no_history_makes_the_clock_panic(
        kind in 0u8..3,
        a in any::<u32>(),
        b in any::<u32>(),
        c in proptest::option::of(any::<u32>()),
        started_at in instants(),
        now in instants(),
        events in proptest::collection::vec((instants(), 0u8..3, any::<bool>(), any::<u32>()), 0..12),
        away in proptest::collection::vec((instants(), instants()), 0..4),
    ) {
        let control = match kind {
            0 => TimeControl::PerTurn { days: Days::from_hundredths(a) },
            1 => TimeControl::Blocks { turns: b, days: Days::from_hundredths(a) },
            _ => TimeControl::Bank {
                bank: Days::from_hundredths(a),
                increment: Days::from_hundredths(b),
                cap: c.map(Days::from_hundredths),
            },
        };
        let events: Vec<Event> = events
            .into_iter()
            .map(|(at, kind, white, days)| match kind {
                0 => Event::Turn { at },
                1 => Event::TakeBack { at },
                _ => Event::Extend {
                    at,
                    to: if white { Side::White } else { Side::Black },
                    days: Days::from_hundredths(days),
                },
            })
            .collect();
        let away: Vec<Interval> = away
            .into_iter()
            .map(|(starts_at, ends_at)| Interval { starts_at, ends_at })
            .collect();
        let history = History {
            control,
            started_at,
            first: Side::White,
            events: &events,
            white_away: &away,
            black_away: &away,
        };
        if let Ok(clock) = history.clock_at(now) {
            let reminders = pbem_clock::Reminders::default();
            let reminded = pbem_clock::Reminded { this_turn: 0, last_at: Some(now) };
            let _ = clock.due(&reminders, &reminded);
            let _ = clock.next_due(&reminders, &reminded);
            let _ = clock.lines();
            let _ = clock.check_extension(Days::from_hundredths(b));
            prop_assert!(clock.now() >= now);
        }
    }
}
