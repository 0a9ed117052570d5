//! Boards with a time control (issue 27): their clock, replayed by the
//! crate pbem-clock from what the store keeps (`store::clocks`), and the
//! vacations that stop it (`store::deadlines::honoured_vacations`, the one
//! place that says what stops a clock). The sweep, the board mails, the
//! web page and `extend` all read a board's clock here.

use pbem_clock::{Clock, Days, History, Interval, Reminders, Side, TimeControl};
use rusqlite::Connection;
use shakmaty::Color;
use time::OffsetDateTime;

use super::board_mail::{self, Occasion};
use super::{Failure, MailCtx, ServiceError, refuse};
use crate::command::Extend;
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::outgoing::Outgoing;
use crate::store::boards::{self, Board};
use crate::store::clocks::{self, StoredClock};
use crate::store::{deadlines, players};

/// A board's clock now, with what it was replayed from.
pub struct BoardClock {
    pub clock: Clock,
    pub stored: StoredClock,
}

pub fn side_of(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// The clock of `board` at `now`, `to_move` being the side to move; `None`
/// for a board without a time control.
pub fn board_clock(
    conn: &Connection,
    board: &Board,
    to_move: Color,
    now: OffsetDateTime,
) -> Result<Option<BoardClock>, ServiceError> {
    let Some(stored) = clocks::stored_clock(conn, board.number)? else {
        return Ok(None);
    };
    let away = |player| -> Result<Vec<Interval>, ServiceError> {
        Ok(
            deadlines::honoured_vacations(conn, board.number, stored.started_at, player)?
                .into_iter()
                .map(|v| Interval {
                    starts_at: v.starts_at,
                    ends_at: v.ends_at,
                })
                .collect(),
        )
    };
    let (white_away, black_away) = (away(board.white)?, away(board.black)?);
    // Each turn and take-back hands the move over: the side that moved
    // first is found back from the side to move now.
    let to_move = side_of(to_move);
    let first = if stored.turns_and_takebacks() % 2 == 0 {
        to_move
    } else {
        to_move.opponent()
    };
    let history = History {
        control: stored.control,
        started_at: stored.started_at,
        first,
        events: &stored.events,
        white_away: &white_away,
        black_away: &black_away,
    };
    let clock = history
        .clock_at(now)
        .map_err(|error| ServiceError::CorruptGame {
            board: board.number,
            reason: error.to_string(),
        })?;
    Ok(Some(BoardClock { clock, stored }))
}

/// Both players' clocks for the board mail, by name: `alice (White): 12
/// days 4 hours left`.
pub fn clock_lines(clock: &Clock, white: &str, black: &str) -> Vec<String> {
    [(Side::White, white), (Side::Black, black)]
        .into_iter()
        .map(|(side, name)| format!("{name} ({side}): {}", clock.line(side)))
        .collect()
}

/// `extend`: the speaker gives their opponent `days` more on the clock,
/// at most [`pbem_clock::MAX_EXTENSION_DAYS`] a game (both players'
/// grants together), never once the player to move's time ran out. Both
/// players read it in the board mail it brings, and under the board until
/// the next turn.
pub(super) fn extend(
    ctx: &mut MailCtx<'_>,
    command: &Extend,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    // In a reply, the reply's board.
    let number = if command.board == 0 {
        token.map_or(BoardNumber(0), |(board, _)| board)
    } else {
        BoardNumber(command.board)
    };
    let player = ctx.speaker(&command.speaker, token, Some(number))?;
    let loaded = board_mail::load(ctx, number)?;
    let Some(color) = loaded.board.color_of(player.id) else {
        return Err(refuse(
            format!("{} does not play on board {number}", player.userid),
            Some(number),
        ));
    };
    if let Some(result) = &loaded.board.result {
        return Err(refuse(
            format!("board {number} is finished ({result})"),
            Some(number),
        ));
    }
    if boards::unaccepted(ctx.conn, number)?.is_some() {
        return Err(refuse(
            format!("the challenge of board {number} is not accepted yet: no clock runs"),
            Some(number),
        ));
    }
    let Some(BoardClock { clock, .. }) =
        board_clock(ctx.conn, &loaded.board, loaded.game.state().turn(), ctx.now)?
    else {
        return Err(refuse(
            format!(
                "board {number} has no time control (it was made without --time): its deadlines cannot be extended"
            ),
            Some(number),
        ));
    };
    clock
        .check_extension(command.days)
        .map_err(|why| refuse(format!("board {number}: {why}"), Some(number)))?;
    let opponent = players::by_id(ctx.conn, loaded.board.player(!color))?;
    clocks::add_extension(
        ctx.conn,
        number,
        ctx.now,
        side_of(!color),
        command.days,
        player.id,
    )?;
    let note = format!(
        "{} gave {} {} more on the clock (extend); {} of the 30 extra days a game may have are left.",
        player.userid,
        opponent.userid,
        pbem_clock::days_text(command.days),
        clock
            .extension_room()
            .checked_sub(command.days)
            .unwrap_or(Days::ZERO)
    );
    boards::add_comment(
        ctx.conn,
        number,
        None,
        loaded.turns.len() as u32,
        &note,
        ctx.now,
    )?;
    drop(loaded);
    Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
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
