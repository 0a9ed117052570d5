//! Challenges wait for the challenged player, and ratings count only
//! games really played (issue 24, finding 4).
//!
//! A `challenge` makes a board that waits for the challenged player: they
//! accept it with `accept` (by password, or in a reply to the challenge's
//! board mail) or simply by playing their first turn, and refuse it with
//! `decline`. The challenger may play White's first turn at once. Until
//! the challenge is accepted no clock runs on the board (no reminder, no
//! loss on time), and an unanswered challenge lapses after the board's
//! forfeit days with no result and no rating (`deadlines::lapse_unanswered`,
//! run by the deadline sweep). The challenged player gets a board mail only
//! for a position not shown to them yet (the challenge, and the
//! challenger's first turn), and the mail of its end; never a chat, a
//! comment or an offer (`board_mail::mails_player`): a stranger cannot use
//! a challenge to send them mail.
//!
//! How many challenges may go unanswered (waiting, or ended unaccepted
//! within [`UNANSWERED_WINDOW`]), and how many games a player may have in
//! progress, is bounded ([`WAITING_PER_OPPONENT`],
//! [`WAITING_PER_CHALLENGER`], [`BOARDS_IN_PROGRESS`]).
//!
//! A game in which either side has not yet made [`TURNS_TO_RATE`] turns
//! ends unrated, whatever ended it (an abort: [`is_abort`]); an event
//! still scores it.

use super::{Ctx, Failure, ServiceError, refuse};
use crate::domain::{BoardNumber, PlayerId};
use crate::store::boards::{self, Board};
use crate::store::players::{self, Player};

/// Unanswered challenges one player may have for the same opponent:
/// waiting, or made within [`UNANSWERED_WINDOW`] and ended unaccepted (so
/// that withdrawing a challenge and making it again mails nobody more).
pub const WAITING_PER_OPPONENT: u32 = 3;
/// Unanswered challenges one player may have in all, counted the same way.
pub const WAITING_PER_CHALLENGER: u32 = 10;
/// How long a challenge that ended unaccepted still counts against its
/// challenger's bounds, from when it was made.
pub const UNANSWERED_WINDOW: time::Duration = time::Duration::days(30);
/// Games a player may have in progress (challenges to them that they have
/// not accepted do not count).
pub const BOARDS_IN_PROGRESS: u32 = 100;
/// Turns each side must have made for a game to be rated.
pub const TURNS_TO_RATE: u32 = 2;

/// Refuses a new challenge from `challenger` to `opponent` beyond the
/// bounds.
pub(super) fn check_bounds(
    ctx: &Ctx<'_>,
    challenger: &Player,
    opponent: &Player,
) -> Result<(), Failure> {
    let days = UNANSWERED_WINDOW.whole_days();
    let (to_opponent, in_all) = boards::unanswered_challenges(
        ctx.conn,
        challenger.id,
        opponent.id,
        ctx.now - UNANSWERED_WINDOW,
    )?;
    if to_opponent >= WAITING_PER_OPPONENT {
        return Err(refuse(
            format!(
                "{} has not accepted {to_opponent} of your challenges (waiting, or made in the last {days_n}); a player may have at most {WAITING_PER_OPPONENT} unanswered challenges to the same opponent",
                opponent.userid,
                days_n = crate::render::count(days, "day"),
            ),
            None,
        ));
    }
    if in_all >= WAITING_PER_CHALLENGER {
        return Err(refuse(
            format!(
                "{in_all} of your challenges are not accepted (waiting, or made in the last {days_n}); a player may have at most {WAITING_PER_CHALLENGER} unanswered challenges",
                days_n = crate::render::count(days, "day"),
            ),
            None,
        ));
    }
    for player in [challenger, opponent] {
        check_in_progress(ctx, player, None)?;
    }
    Ok(())
}

/// Refuses when `player` has [`BOARDS_IN_PROGRESS`] games in progress.
fn check_in_progress(
    ctx: &Ctx<'_>,
    player: &Player,
    board: Option<BoardNumber>,
) -> Result<(), Failure> {
    let games = boards::in_progress(ctx.conn, player.id)?;
    if games >= BOARDS_IN_PROGRESS {
        return Err(refuse(
            format!(
                "{} has {} in progress, the most a player may have; a new game can start once one of them has ended",
                player.userid,
                crate::render::count(games, "game"),
            ),
            board,
        ));
    }
    Ok(())
}

/// The player the challenge of a board in progress waits for, if it
/// waits.
pub(super) fn waiting_for(ctx: &Ctx<'_>, board: &Board) -> Result<Option<PlayerId>, ServiceError> {
    if board.is_finished() {
        return Ok(None);
    }
    Ok(boards::unaccepted(ctx.conn, board.number)?.map(|u| u.challenged))
}

/// `player` accepts the challenge of `board` if it waits for them (by
/// `accept`, or by acting as a player: a turn, a queued turn); the clock
/// of the player to move starts now.
pub(super) fn accept_if_waiting(
    ctx: &Ctx<'_>,
    board: &Board,
    player: &Player,
) -> Result<bool, Failure> {
    if waiting_for(ctx, board)? != Some(player.id) {
        return Ok(false);
    }
    check_in_progress(ctx, player, Some(board.number))?;
    boards::accept_challenge(ctx.conn, board.number, ctx.now)?;
    ctx.tell(
        board.number,
        format!("{} accepted the challenge.", player.userid),
    );
    Ok(true)
}

/// What a board mail says of a challenge that waits: how to answer it,
/// and when it lapses.
pub(super) fn waiting_line(ctx: &Ctx<'_>, board: &Board) -> Result<Option<String>, ServiceError> {
    let Some(challenged) = waiting_for(ctx, board)? else {
        return Ok(None);
    };
    let who = players::by_id(ctx.conn, challenged)?.userid;
    Ok(Some(format!(
        "The challenge waits for {who}: {who} accepts it by replying accept (or with {who}'s first turn), or refuses it by replying decline. No clock runs until then; unanswered, the challenge lapses on {} with no result and no rating.",
        crate::render::readable_time(lapses_at(board))
    )))
}

/// When the challenge of `board` lapses if it is not answered.
fn lapses_at(board: &Board) -> time::OffsetDateTime {
    after_days(board.created_at, board.options.forfeit_days)
}

/// `days` after `start`; a count past the calendar (only a corrupt row
/// holds one) never comes.
pub(super) fn after_days(start: time::OffsetDateTime, days: u32) -> time::OffsetDateTime {
    start
        .checked_add(time::Duration::days(i64::from(days)))
        .unwrap_or(time::macros::datetime!(9999-12-31 23:59 UTC))
}

/// Whether a game of `board` ending now is an abort: a side has made
/// fewer than [`TURNS_TO_RATE`] turns (White makes the odd turns, Black
/// the even ones).
pub(super) fn is_abort(ctx: &Ctx<'_>, board: BoardNumber) -> Result<bool, ServiceError> {
    let turns = boards::turn_count(ctx.conn, board)?;
    Ok(turns / 2 < TURNS_TO_RATE)
}
