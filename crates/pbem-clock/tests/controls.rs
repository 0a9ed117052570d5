//! The clock's arithmetic for each control, against tables worked by
//! hand. Times are days (and quarter days) after a game started at
//! 2026-03-01 00:00 UTC; a row says, at that instant, who is to move and
//! both players' time left.

use pbem_clock::{
    Block, Days, Due, Event, ExtendError, History, Interval, RanOut, Reminded, Reminder, Reminders,
    Side, TimeControl,
};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const START: OffsetDateTime = datetime!(2026-03-01 00:00 UTC);

/// `days` (to two decimals) after the start.
fn at(days: f64) -> OffsetDateTime {
    START + length(days)
}

/// `days` as an exact length (hundredths of a day).
fn length(days: f64) -> Duration {
    let hundredths = (days * 100.0).round();
    assert!(
        (days * 100.0 - hundredths).abs() < 1e-9,
        "{days} has two decimals at most"
    );
    Duration::seconds(hundredths as i64 * 864)
}

fn control(text: &str) -> TimeControl {
    text.parse().expect(text)
}

fn turn(days: f64) -> Event {
    Event::Turn { at: at(days) }
}

fn take_back(days: f64) -> Event {
    Event::TakeBack { at: at(days) }
}

fn extend(days: f64, to: Side, extra: &str) -> Event {
    Event::Extend {
        at: at(days),
        to,
        days: Days::parse(extra).expect(extra),
    }
}

fn away(from: f64, to: f64) -> Interval {
    Interval {
        starts_at: at(from),
        ends_at: at(to),
    }
}

struct Game {
    control: TimeControl,
    first: Side,
    events: Vec<Event>,
    white_away: Vec<Interval>,
    black_away: Vec<Interval>,
}

impl Game {
    fn new(text: &str, events: Vec<Event>) -> Game {
        Game {
            control: control(text),
            first: Side::White,
            events,
            white_away: Vec::new(),
            black_away: Vec::new(),
        }
    }

    /// The clock at `now` with the events stored by then.
    fn at(&self, now: f64) -> pbem_clock::Clock {
        let stored: Vec<Event> = self
            .events
            .iter()
            .copied()
            .filter(|event| event.at() <= at(now))
            .collect();
        History {
            control: self.control,
            started_at: START,
            first: self.first,
            events: &stored,
            white_away: &self.white_away,
            black_away: &self.black_away,
        }
        .clock_at(at(now))
        .expect("within the calendar")
    }

    /// Checks each row: (now, side to move, White's time left, Black's).
    fn check(&self, rows: &[(f64, Side, f64, f64)]) {
        for &(now, to_move, white, black) in rows {
            let clock = self.at(now);
            assert_eq!(
                (
                    clock.to_move(),
                    clock.left(Side::White),
                    clock.left(Side::Black)
                ),
                (to_move, length(white), length(black)),
                "{} at day {now}",
                self.control
            );
        }
    }
}

use Side::{Black, White};

#[test]
fn days_per_turn_start_afresh_each_turn() {
    let game = Game::new("3", vec![turn(2.0), turn(3.0), turn(5.5)]);
    game.check(&[
        // (now, to move, White left, Black left): the one not to move
        // has the days of their next turn.
        (0.0, White, 3.0, 3.0),
        (1.0, White, 2.0, 3.0),
        (2.0, Black, 3.0, 3.0),
        (2.5, Black, 3.0, 2.5),
        (3.0, White, 3.0, 3.0),
        (5.0, White, 1.0, 3.0),
        (5.5, Black, 3.0, 3.0),
        (6.5, Black, 3.0, 2.0),
        (8.0, Black, 3.0, 0.5),
        (9.0, Black, 3.0, -0.5),
    ]);
    assert_eq!(game.at(4.0).loses_at(), at(6.0));
    assert_eq!(game.at(6.5).loses_at(), at(8.5));
    assert_eq!(
        game.at(9.0)
            .due(&Reminders::default(), &Reminded::default()),
        Due::LossOnTime {
            side: Black,
            at: at(8.5)
        }
    );
    assert_eq!(
        game.at(9.0).ran_out(),
        Some(RanOut {
            side: Black,
            at: at(8.5)
        })
    );
    assert_eq!(game.at(8.0).ran_out(), None);
}

#[test]
fn half_days_per_turn() {
    let game = Game::new("0.5", vec![turn(0.25), turn(0.5), turn(0.75)]);
    game.check(&[
        (0.0, White, 0.5, 0.5),
        (0.25, Black, 0.5, 0.5),
        (0.5, White, 0.5, 0.5),
        (0.75, Black, 0.5, 0.5),
        (1.0, Black, 0.5, 0.25),
    ]);
    assert_eq!(game.at(1.0).loses_at(), at(1.25));
}

/// ICCF's cumulative count, `2/10`: White's slow first turn is paid for
/// two blocks later; Black's quick turns carry over.
#[test]
fn blocks_count_cumulatively_and_carry_unused_time_over() {
    let game = Game::new(
        "2/10",
        vec![
            turn(8.0),  // White 1: 8 days used
            turn(9.0),  // Black 1: 1
            turn(10.0), // White 2: 9 of the first 10 days
            turn(12.0), // Black 2: 3 of the first 10
            turn(20.0), // White 3: 17 of 20
            turn(21.0), // Black 3: 4 of 20
        ],
    );
    game.check(&[
        (0.0, White, 10.0, 10.0),
        (5.0, White, 5.0, 10.0),
        (8.0, Black, 2.0, 10.0),
        (9.5, White, 1.5, 9.0),
        // The first block done with a day to spare: it carries over.
        (10.0, Black, 11.0, 9.0),
        (11.0, Black, 11.0, 8.0),
        (12.0, White, 11.0, 17.0),
        (20.0, Black, 3.0, 17.0),
        (21.0, White, 3.0, 16.0),
        (23.0, White, 1.0, 16.0),
        (24.0, White, 0.0, 16.0),
    ]);
    let block = |now: f64, side| game.at(now).block(side).expect("N/D");
    assert_eq!(
        block(5.0, White),
        Block {
            turns_left: 2,
            by: Some(at(10.0))
        }
    );
    assert_eq!(
        block(5.0, Black),
        Block {
            turns_left: 2,
            by: None
        }
    );
    assert_eq!(block(9.5, White).turns_left, 1);
    assert_eq!(block(9.5, Black).turns_left, 1);
    assert_eq!(block(11.0, Black).by, Some(at(19.0)));
    // Turn 3 opens the second block: 2 turns in what is left of 20 days.
    assert_eq!(
        block(12.0, White),
        Block {
            turns_left: 2,
            by: Some(at(23.0))
        }
    );
    assert_eq!(
        block(21.0, White),
        Block {
            turns_left: 1,
            by: Some(at(24.0))
        }
    );
    assert_eq!(
        game.at(24.0)
            .due(&Reminders::default(), &Reminded::default()),
        Due::LossOnTime {
            side: White,
            at: at(24.0)
        }
    );
    // The turn began with 3 days: a day left and a quarter (0.75 days)
    // both passed by now, one mail.
    assert_eq!(
        game.at(23.75)
            .due(&Reminders::default(), &Reminded::default()),
        Due::Remind {
            reminder: Reminder::ShareLeft(25),
            this_turn: 2
        }
    );
}

/// Black thinks 9 days on its second turn, which days per turn of 5 would
/// not allow: the quick first turn saves it.
#[test]
fn a_quick_turn_saves_a_slow_one_in_the_same_block() {
    let game = Game::new("2/10", vec![turn(1.0), turn(1.5), turn(2.0), turn(11.0)]);
    game.check(&[
        (1.5, White, 9.0, 9.5),
        (10.9, Black, 18.5, 0.6),
        (11.0, White, 18.5, 20.0 - 9.5),
    ]);
    assert_eq!(game.at(11.0).ran_out(), None);
    // One more day and the block is lost.
    let late = Game::new("2/10", vec![turn(1.0), turn(1.5), turn(2.0), turn(12.0)]);
    assert_eq!(
        late.at(12.0).ran_out(),
        Some(RanOut {
            side: Black,
            at: at(11.5)
        })
    );
}

#[test]
fn a_vacation_in_the_middle_of_a_block_stops_the_clock() {
    let mut game = Game::new("2/10", vec![turn(12.0), turn(13.0), turn(15.0)]);
    game.white_away = vec![away(3.0, 8.0)];
    // Black's vacation while White is to move stops nothing.
    game.black_away = vec![away(4.0, 6.0)];
    game.check(&[
        (3.0, White, 7.0, 10.0),
        (5.0, White, 7.0, 10.0),
        (8.0, White, 7.0, 10.0),
        (10.0, White, 5.0, 10.0),
        (12.0, Black, 3.0, 10.0),
        (13.0, White, 3.0, 9.0),
        (15.0, Black, 11.0, 9.0),
    ]);
    // During the vacation, the loss on time waits for its end.
    assert_eq!(game.at(5.0).loses_at(), at(15.0));
    assert_eq!(game.at(13.0).loses_at(), at(16.0));
    // A vacation known ahead pushes the deadline back too.
    game.white_away.push(away(13.5, 14.5));
    assert_eq!(game.at(13.0).loses_at(), at(17.0));
    assert_eq!(
        game.at(13.0).block(White).and_then(|block| block.by),
        Some(at(17.0))
    );
}

#[test]
fn a_bank_gains_its_increment_up_to_the_cap() {
    let game = Game::new(
        "3+1/4",
        vec![
            turn(1.0),  // White: 3 - 1 + 1 = 3
            turn(1.5),  // Black: 3 - 0.5 + 1 = 3.5
            turn(1.75), // White: 3 - 0.25 + 1 = 3.75
            turn(2.0),  // Black: 3.5 - 0.25 + 1, capped: 4
            turn(2.25), // White: 3.75 - 0.25 + 1, capped: 4
        ],
    );
    game.check(&[
        (0.5, White, 2.5, 3.0),
        (1.0, Black, 3.0, 3.0),
        (1.5, White, 3.0, 3.5),
        (1.75, Black, 3.75, 3.5),
        (2.0, White, 3.75, 4.0),
        (2.25, Black, 4.0, 4.0),
        (5.25, Black, 4.0, 1.0),
        (6.25, Black, 4.0, 0.0),
        (6.5, Black, 4.0, -0.25),
    ]);
    assert_eq!(game.at(2.25).loses_at(), at(6.25));
    assert_eq!(
        game.at(3.0).lines(),
        [
            "White: 4 days left".to_string(),
            "Black: 3 days 6 hours left, until 2026-03-07 06:00 UTC".to_string()
        ]
    );
}

#[test]
fn a_bank_without_a_cap_grows_and_the_increment_decides() {
    // 3+1: each quick turn banks nearly a day; a slow one spends it.
    let game = Game::new("3+1", vec![turn(0.25), turn(0.5), turn(0.75), turn(4.25)]);
    game.check(&[
        (0.5, White, 3.75, 3.75),
        (0.75, Black, 4.5, 3.75),
        // Black thinks 3.5 days: more than the 3 it started with, less
        // than its bank.
        (4.25, White, 4.5, 0.25 + 1.0),
    ]);
    assert_eq!(game.at(4.25).ran_out(), None);
    let late = Game::new("3+1", vec![turn(0.25), turn(0.5), turn(0.75), turn(4.75)]);
    // Stored a quarter of a day after the bank ran out: too late.
    assert_eq!(
        late.at(4.75).ran_out(),
        Some(RanOut {
            side: Black,
            at: at(4.5)
        })
    );
}

#[test]
fn an_extension_above_the_cap_stays_and_the_increment_waits_below_it() {
    let game = Game::new(
        "3+1/4",
        vec![
            extend(0.5, White, "3"),
            turn(1.0),
            turn(1.25),
            turn(2.0),
            turn(2.25),
            turn(3.0),
        ],
    );
    game.check(&[
        (0.5, White, 5.5, 3.0),
        // 5 left after the turn: above the cap, no increment.
        (1.0, Black, 5.0, 3.0),
        (1.25, White, 5.0, 3.75),
        (2.0, Black, 4.25, 3.75),
        (2.25, White, 4.25, 4.0),
        // 3.5 left after the turn: the increment fills it to the cap.
        (3.0, Black, 4.0, 4.0),
    ]);
}

#[test]
fn extensions_give_days_to_the_turn_or_the_rest_of_the_game() {
    // Days per turn: to the turn in progress, or to the next one.
    let per_turn = Game::new(
        "3",
        vec![
            extend(1.0, White, "1"),
            extend(1.5, Black, "0.5"),
            turn(2.0),
            turn(3.0),
            turn(4.0),
        ],
    );
    per_turn.check(&[
        (1.0, White, 3.0, 3.0),
        (1.5, White, 2.5, 3.5),
        (2.0, Black, 3.0, 3.5),
        // Black used 1 day of 3.5; then the extra half day is gone.
        (3.0, White, 3.0, 3.0),
        (4.0, Black, 3.0, 3.0),
    ]);
    // N/D: every block deadline moves for the rest of the game.
    let blocks = Game::new(
        "2/10",
        vec![turn(1.0), extend(1.5, White, "2"), turn(2.0), turn(3.0)],
    );
    blocks.check(&[
        (1.5, Black, 11.0, 9.5),
        (3.0, Black, 12.0 + 10.0 - 1.0 - 1.0, 9.0),
    ]);
    assert_eq!(
        blocks.at(3.0).extension_room(),
        Days::whole(28).expect("days")
    );
}

#[test]
fn at_most_thirty_extra_days_a_game_and_none_after_the_time_ran_out() {
    let game = Game::new(
        "3",
        vec![extend(0.5, Black, "20"), extend(1.0, White, "8.5")],
    );
    let clock = game.at(1.0);
    assert_eq!(clock.extension_room(), Days::from_hundredths(150));
    assert_eq!(clock.check_extension(Days::from_hundredths(150)), Ok(()));
    let refused = clock.check_extension(Days::whole(2).expect("days"));
    assert_eq!(
        refused,
        Err(ExtendError::TooMany {
            asked: Days::whole(2).expect("days"),
            room: Days::from_hundredths(150)
        })
    );
    assert!(
        refused
            .expect_err("refused")
            .to_string()
            .contains("give at most 1.5"),
        "says what may be given"
    );
    assert_eq!(clock.check_extension(Days::ZERO), Err(ExtendError::Nothing));
    let ran_out = game.at(13.0);
    assert_eq!(
        ran_out.check_extension(Days::whole(1).expect("days")),
        Err(ExtendError::RanOut(RanOut {
            side: White,
            at: at(11.5)
        }))
    );
}

#[test]
fn a_take_back_keeps_the_time_used_but_not_the_turn() {
    // A bank: the increment of the turn taken back goes with it.
    let bank = Game::new("3+1", vec![turn(1.0), take_back(1.5), turn(2.0)]);
    bank.check(&[
        (1.0, Black, 3.0, 3.0),
        (1.5, White, 2.0, 2.5),
        (2.0, Black, 2.5, 2.5),
    ]);
    assert_eq!(bank.at(1.5).turns_made(White), 0);
    // N/D: a turn taken back at a block boundary takes the block back.
    let blocks = Game::new(
        "2/10",
        vec![turn(1.0), turn(2.0), turn(3.0), take_back(4.0)],
    );
    blocks.check(&[(3.0, Black, 18.0, 9.0), (4.0, White, 8.0, 8.0)]);
    assert_eq!(blocks.at(4.0).block(White).map(|b| b.turns_left), Some(1));
    // Days per turn: the turn starts afresh, as an undo always did.
    let per_turn = Game::new("3", vec![turn(1.0), take_back(2.5), turn(5.0)]);
    per_turn.check(&[(2.5, White, 3.0, 3.0), (5.0, Black, 3.0, 3.0)]);
    assert_eq!(per_turn.at(5.0).ran_out(), None);
    // Nothing to take back: nothing happens.
    let none = Game::new("3", vec![take_back(1.0)]);
    none.check(&[(2.0, White, 1.0, 3.0)]);
}

#[test]
fn reminders_at_a_quarter_and_at_a_day_left_at_most_one_a_day() {
    let game = Game::new("8", vec![]);
    let defaults = Reminders::default();
    let nothing = Reminded::default();
    let due = |now: f64, reminded: &Reminded| game.at(now).due(&defaults, reminded);
    assert_eq!(due(5.0, &nothing), Due::Nothing);
    assert_eq!(
        due(6.0, &nothing),
        Due::Remind {
            reminder: Reminder::ShareLeft(25),
            this_turn: 1
        }
    );
    let once = Reminded {
        this_turn: 1,
        last_at: Some(at(6.0)),
    };
    assert_eq!(due(6.5, &once), Due::Nothing, "never twice");
    assert_eq!(
        due(7.0, &once),
        Due::Remind {
            reminder: Reminder::DaysLeft(Days::whole(1).expect("days")),
            this_turn: 2
        }
    );
    let lately = Reminded {
        this_turn: 1,
        last_at: Some(at(6.5)),
    };
    assert_eq!(due(7.0, &lately), Due::Nothing, "one a day");
    assert_eq!(game.at(7.0).next_due(&defaults, &lately), Ok(at(7.5)));
    // A missed sweep: one mail, both counted.
    assert_eq!(
        due(7.25, &nothing),
        Due::Remind {
            reminder: Reminder::DaysLeft(Days::whole(1).expect("days")),
            this_turn: 2
        }
    );
    let both = Reminded {
        this_turn: 2,
        last_at: Some(at(7.25)),
    };
    assert_eq!(due(7.9, &both), Due::Nothing);
    assert_eq!(game.at(0.0).next_due(&defaults, &nothing), Ok(at(6.0)));
    assert_eq!(game.at(6.0).next_due(&defaults, &once), Ok(at(7.0)));
    assert_eq!(game.at(7.25).next_due(&defaults, &both), Ok(at(8.0)));
    // Configured: at half the time and two days left.
    let custom: Reminders = "50%,2".parse().expect("reminders");
    assert_eq!(
        game.at(4.0).due(&custom, &nothing),
        Due::Remind {
            reminder: Reminder::ShareLeft(50),
            this_turn: 1
        }
    );
    let none: Reminders = "none".parse().expect("reminders");
    assert_eq!(game.at(7.9).due(&none, &nothing), Due::Nothing);
}

#[test]
fn a_reminder_past_when_the_turn_began_is_not_sent_and_the_share_follows_the_turn() {
    // Half a day a turn: the day-left reminder never comes; a quarter does.
    let short = Game::new("0.5", vec![]);
    let defaults = Reminders::default();
    let nothing = Reminded::default();
    assert_eq!(short.at(0.25).due(&defaults, &nothing), Due::Nothing);
    assert_eq!(
        short.at(0.38).due(&defaults, &nothing),
        Due::Remind {
            reminder: Reminder::ShareLeft(25),
            this_turn: 1
        }
    );
    // A bank: the share is of the bank when the turn began (7 days).
    let bank = Game::new("6+1", vec![turn(0.0), turn(0.0)]);
    assert_eq!(bank.at(5.0).due(&defaults, &nothing), Due::Nothing);
    assert_eq!(
        bank.at(5.25).due(&defaults, &nothing),
        Due::Remind {
            reminder: Reminder::ShareLeft(25),
            this_turn: 1
        }
    );
}

#[test]
fn board_mail_lines_say_both_clocks() {
    let blocks = Game::new("3/15", vec![turn(2.0), turn(3.0), turn(5.5)]);
    assert_eq!(
        blocks.at(6.0).lines(),
        [
            "White: 1 turn in 10 days 12 hours".to_string(),
            "Black: 2 turns by 2026-03-20 12:00 UTC (13 days 12 hours left)".to_string()
        ]
    );
    let per_turn = Game::new("3", vec![turn(2.0)]);
    assert_eq!(
        per_turn.at(2.5).lines(),
        [
            "White: 3 days for the next turn".to_string(),
            "Black: 2 days 12 hours left, until 2026-03-06 00:00 UTC".to_string()
        ]
    );
    assert_eq!(
        per_turn.at(6.0).line(Black),
        "time ran out at 2026-03-06 00:00 UTC"
    );
}

/// Every board stored before time controls reads as `D` with its days
/// for a turn, begun at its last turn (or undo) with the player then to
/// move, and loses on time as the sweep before clocks said: its days
/// after its last turn, the vacations of the player to move added.
#[test]
fn a_stored_board_keeps_its_deadline() {
    let last_turn = 10.0;
    let mut game = Game {
        control: TimeControl::per_turn_days(21),
        first: Black,
        events: Vec::new(),
        white_away: vec![away(12.0, 15.0)],
        black_away: vec![away(12.0, 14.0)],
    };
    let clock = |game: &Game, now: f64| {
        History {
            control: game.control,
            started_at: at(last_turn),
            first: game.first,
            events: &game.events,
            white_away: &game.white_away,
            black_away: &game.black_away,
        }
        .clock_at(at(now))
        .expect("within the calendar")
    };
    assert_eq!(clock(&game, 11.0).loses_at(), at(last_turn + 21.0 + 2.0));
    assert_eq!(clock(&game, 11.0).to_move(), Black);
    game.black_away.clear();
    assert_eq!(clock(&game, 11.0).loses_at(), at(31.0));
    // The next turn goes on as in any game begun with a clock.
    game.events.push(turn(12.0));
    assert_eq!(clock(&game, 20.0).loses_at(), at(12.0 + 21.0 + 3.0));
    assert_eq!(game.control.to_string(), "21");
}

#[test]
fn a_clock_set_back_moves_nothing_backwards() {
    let game = Game::new("3", vec![turn(2.0), turn(1.0)]);
    let clock = game.at(2.0);
    assert_eq!(clock.to_move(), White);
    assert_eq!(clock.turn_started_at(), at(2.0));
    assert_eq!(clock.left(Black), length(2.0 + 1.0));
    // A `now` before the last event counts as that event.
    let history = History {
        control: game.control,
        started_at: START,
        first: White,
        events: &game.events,
        white_away: &[],
        black_away: &[],
    };
    assert_eq!(
        history.clock_at(at(1.0)).map(|clock| clock.now()),
        Ok(at(2.0))
    );
}

#[test]
fn a_clock_beyond_the_calendar_is_an_error_not_a_panic() {
    let history = History {
        control: TimeControl::PerTurn {
            days: Days::from_hundredths(u32::MAX),
        },
        started_at: START,
        first: White,
        events: &[],
        white_away: &[],
        black_away: &[],
    };
    assert_eq!(history.clock_at(at(1.0)), Err(pbem_clock::BeyondCalendar));
}
