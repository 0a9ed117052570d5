//! Applying deadlines: the sweep that reminds slow players, scores games
//! lost on time and accepts draw offers left unanswered, and the daily
//! digest. A board with a time control (issue 27) follows its clock
//! (`controlled_call`: the loss at the instant the time ran out, the
//! reminders of `--remind`, one a day at most); a board without one keeps
//! the per-turn deadlines of `schedule` (`legacy_call`).
//!
//! The sweep is a sequence of steps. Each finds what is due in a read,
//! which takes no lock from the mail, and then acts on it in short
//! transactions ([`Service::in_short_transactions`]): every item is looked
//! at again in the transaction that acts on it, and its effects and its
//! mails are committed together, so a restart or a second sweep at the
//! same time loses and doubles nothing. Between two transactions the sweep
//! pauses, and mail waiting for the database goes first: a sweep over
//! thousands of boards never holds the write lock for long, and never
//! makes a mail wait until `pbem process` gives up.

use std::collections::HashMap;
use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use pbem_clock::{Due as ClockDue, Side};
use rusqlite::Connection;
use shakmaty::Color;
use time::OffsetDateTime;

use super::Ctx;
use super::board_mail::{self, Occasion};
use super::challenges;
use super::charge::{self, Payer};
use super::clocks::{self, BoardClock};
use super::ending::{Ending, end_game};
use super::event_rounds::send_board_mails;
use super::kernel::{Service, ServiceError};
use super::queue::{Replies, queue_all};
use crate::caught::panic_text;
use crate::domain::{BoardNumber, MailChoice, PlayerId, TurnDeadlines, Vacation};
use crate::render::readable_time;
use crate::schedule::{self, Due};
use crate::store::players;
use crate::store::{self, CachedStatements, boards, preferences, tournaments};

/// How long one of the sweep's transactions takes on more items; the
/// item in hand is finished, so a transaction lasts this long plus one
/// item (a few milliseconds).
const SHORT: Duration = Duration::from_millis(50);

/// The pause between two of the sweep's transactions, in which mail
/// waiting for the database goes first: a thread of this process waiting
/// for its turn (see `store::write_turn`) is woken at once, another process
/// tries SQLite's lock again every 100 ms at most.
const PAUSE: Duration = Duration::from_millis(50);

/// What one sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    pub reminders: usize,
    pub losses_on_time: usize,
    pub draws_by_timeout: usize,
}

/// What the sweep did on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Acted {
    Nothing,
    Reminded,
    LostOnTime,
    DrawnByTimeout,
}

impl Service {
    /// Runs the deadline sweep as of `now`: its steps in turn.
    pub fn sweep(&mut self, now: OffsetDateTime) -> Result<SweepReport, ServiceError> {
        let report = self.board_deadlines(now)?;
        self.swiss_round_deadlines(now)?;
        self.lapse_challenges(now)?;
        Ok(report)
    }

    /// Challenges unanswered past their days lapse, with no result and no
    /// rating (see `challenges`), in a transaction of their own.
    fn lapse_challenges(&mut self, now: OffsetDateTime) -> Result<(), ServiceError> {
        self.in_short_transactions(now, &["unanswered challenges"], |ctx, _| {
            lapse_unanswered(ctx).map(drop)
        })?;
        Ok(())
    }

    /// Reminders, losses on time and draws by timeout.
    fn board_deadlines(&mut self, now: OffsetDateTime) -> Result<SweepReport, ServiceError> {
        let due = self.read(|conn| due_boards(conn, now))?;
        let acted =
            self.in_short_transactions(now, &due, |ctx, &board| board_deadline(ctx, board))?;
        let mut report = SweepReport::default();
        for acted in acted {
            match acted {
                Acted::Nothing => {}
                Acted::Reminded => report.reminders += 1,
                Acted::LostOnTime => report.losses_on_time += 1,
                Acted::DrawnByTimeout => report.draws_by_timeout += 1,
            }
        }
        Ok(report)
    }

    /// Swiss rounds past their deadline (each scores its unfinished games
    /// and pairs the next round), in a transaction of their own.
    fn swiss_round_deadlines(&mut self, now: OffsetDateTime) -> Result<(), ServiceError> {
        self.in_short_transactions(now, &["Swiss rounds"], |ctx, _| {
            round_deadlines(ctx).map(drop)
        })?;
        Ok(())
    }

    /// Sends each player who chose the digest (`set mail digest`) a list
    /// of the boards where it is their turn, once a day at most; a player
    /// on `mail every` has had a board mail for each of those turns.
    /// Returns how many digests were queued.
    ///
    /// In short transactions like the sweep: the players already served
    /// today are recorded with their digests (the setting `digest_partial`,
    /// `<day> <last player id>`; players go in the order of their ids), so
    /// a digest cut short goes on where it stopped, and two at once send
    /// nobody two.
    pub fn digest(&mut self, now: OffsetDateTime) -> Result<usize, ServiceError> {
        let today = now.date().to_string();
        let waiting = self.read(|conn| {
            if store::setting(conn, "digest_last_day")?.as_deref() == Some(today.as_str()) {
                return Ok(None);
            }
            let mut waiting: HashMap<PlayerId, Vec<BoardNumber>> = HashMap::new();
            for deadlines in store::deadlines::active_deadlines(conn)? {
                if let Some(to_move) = deadlines.to_move {
                    waiting.entry(to_move).or_default().push(deadlines.board);
                }
            }
            let mut waiting: Vec<_> = waiting.into_iter().collect();
            waiting.sort_by_key(|(player, _)| *player);
            Ok(Some(waiting))
        })?;
        let Some(waiting) = waiting else {
            return Ok(0);
        };
        let sent = self.in_short_transactions(now, &waiting, |ctx, (player, boards)| {
            player_digest(ctx, &today, *player, boards)
        })?;
        let tx = self.store.transaction()?;
        store::set_setting(&tx, "digest_last_day", &today)?;
        tx.commit()?;
        Ok(sent.into_iter().filter(|&sent| sent).count())
    }

    /// Runs `read` in a read transaction: one consistent view of the
    /// database, without its write lock.
    fn read<R>(
        &self,
        read: impl FnOnce(&Connection) -> Result<R, ServiceError>,
    ) -> Result<R, ServiceError> {
        let tx = self.store.conn().unchecked_transaction()?;
        let result = read(&tx)?;
        tx.commit()?;
        Ok(result)
    }

    /// Acts on each of `items` in turn, in transactions of about [`SHORT`]
    /// each, with a [`PAUSE`] between two; returns what `act` returned
    /// for each item it completed. Each item runs in a savepoint with its
    /// mails: one that fails on its own data (or panics, a bug) is taken
    /// back and logged, and the others go on; it is due again at the next
    /// sweep.
    fn in_short_transactions<T: Debug, O>(
        &mut self,
        now: OffsetDateTime,
        items: &[T],
        mut act: impl FnMut(&mut Ctx<'_>, &T) -> Result<O, ServiceError>,
    ) -> Result<Vec<O>, ServiceError> {
        let mut done = Vec::with_capacity(items.len());
        let mut rest = items;
        while !rest.is_empty() {
            if rest.len() < items.len() {
                std::thread::sleep(PAUSE);
            }
            let tx = self.store.transaction()?;
            let started = Instant::now();
            let mut taken = 0;
            for item in rest {
                taken += 1;
                tx.execute_cached("SAVEPOINT item", [])?;
                // A context of its own: nothing of a failed item is left
                // for the next.
                let mut ctx = Ctx::new(&tx, &self.config, &self.templates, &self.key, now, None);
                let outcome = panic::catch_unwind(AssertUnwindSafe(|| act(&mut ctx, item)));
                let mut mails = std::mem::take(&mut ctx.out);
                mails.extend(ctx.take_later_mails());
                drop(ctx);
                let error = match outcome {
                    Ok(Ok(acted)) => {
                        charge::record(&tx, &Payer::Pbem, &charge::Bill::of(&tx, &mails)?, now)?;
                        queue_all(&tx, &self.config, &self.key, mails, now, &mut Replies::Now)?;
                        tx.execute_cached("RELEASE item", [])?;
                        done.push(acted);
                        None
                    }
                    Ok(Err(error)) if error.is_about_one_mail() => Some(error.to_string()),
                    Ok(Err(error)) => return Err(error),
                    Err(panic) => Some(format!("a bug: {}", panic_text(panic.as_ref()))),
                };
                if let Some(error) = error {
                    tx.execute_batch("ROLLBACK TO item; RELEASE item")?;
                    tracing::error!(
                        ?item,
                        "deadline work on an item failed; it is taken back and due again at the next sweep: {error}"
                    );
                }
                if started.elapsed() >= SHORT {
                    break;
                }
            }
            tx.commit()?;
            rest = &rest[taken..];
        }
        Ok(done)
    }

    /// Records who is to move on boards created before that was recorded.
    pub(super) fn backfill_to_move(&mut self) -> Result<(), ServiceError> {
        let tx = self.store.transaction()?;
        for number in store::deadlines::boards_without_to_move(&tx)? {
            let Some(board) = boards::get(&tx, number)? else {
                continue;
            };
            let turns = boards::turns(&tx, number)?;
            let game = board_mail::replay(&board, &turns, turns.len())?;
            store::deadlines::set_to_move(&tx, number, board.player(game.state().turn()))?;
        }
        tx.commit()?;
        Ok(())
    }
}

/// The boards whose deadlines call for something at `now`, from one read
/// of every running clock and the vacations that stop them.
fn due_boards(conn: &Connection, now: OffsetDateTime) -> Result<Vec<BoardNumber>, ServiceError> {
    let active = store::deadlines::active_deadlines(conn)?;
    let Some(oldest) = active.iter().map(|c| c.last_turn_at).min() else {
        return Ok(Vec::new());
    };
    let allowances = tournaments::vacation_allowances(conn)?;
    // Vacations since the start of an event count against its allowance
    // even where they ended before every running clock started (as the
    // board mails count them).
    let from = allowances
        .values()
        .map(|&(_, since)| since)
        .fold(oldest, OffsetDateTime::min);
    let mut vacations: HashMap<PlayerId, Vec<Vacation>> = HashMap::new();
    for (player, vacation) in store::deadlines::vacations_ending_after(conn, from)? {
        vacations.entry(player).or_default().push(vacation);
    }
    let controlled = crate::store::clocks::controlled_boards(conn)?;
    let mut due = Vec::new();
    for deadlines in active {
        let Some(to_move) = deadlines.to_move else {
            continue;
        };
        if controlled.contains(&deadlines.board) {
            if schedule::draw_timed_out(&deadlines, now)
                || controlled_call(conn, &deadlines, to_move, now)?.is_some()
            {
                due.push(deadlines.board);
            }
            continue;
        }
        let all_away = vacations.get(&to_move).map_or(&[][..], Vec::as_slice);
        let honoured = match allowances.get(&deadlines.board) {
            Some(&(days, since)) => schedule::within_allowance(all_away, since, days),
            None => all_away.to_vec(),
        };
        if schedule::due(&deadlines, now, &honoured) != Due::Nothing {
            due.push(deadlines.board);
        }
    }
    Ok(due)
}

/// What the deadlines of `board` call for, as the database stands in this
/// transaction (a turn or another sweep may have come since the read):
/// done, with its mails in `ctx.out`.
fn board_deadline(ctx: &mut Ctx<'_>, board: BoardNumber) -> Result<Acted, ServiceError> {
    let Some((deadlines, call)) = call_of(ctx, board)? else {
        return Ok(Acted::Nothing);
    };
    act_on(ctx, &deadlines, call)
}

/// A turn of `mover` arrived on `board`: when the deadlines call for their
/// loss on time (their time ran out before the sweep came by), the game
/// ends on time now, on the sweep's path and in the mail's transaction,
/// and the reason is returned; the turn is then not played.
pub(super) fn lost_before_turn(
    ctx: &mut Ctx<'_>,
    board: BoardNumber,
    mover: PlayerId,
) -> Result<Option<String>, ServiceError> {
    let Some((deadlines, call)) = call_of(ctx, board)? else {
        return Ok(None);
    };
    let Call::LossOnTime { loser, reason } = &call else {
        return Ok(None);
    };
    if *loser != mover {
        return Ok(None);
    }
    let reason = reason.clone();
    act_on(ctx, &deadlines, call)?;
    Ok(Some(reason))
}

/// What the deadlines of `board` call for now, if anything.
fn call_of(
    ctx: &Ctx<'_>,
    board: BoardNumber,
) -> Result<Option<(TurnDeadlines, Call)>, ServiceError> {
    let Some(deadlines) = store::deadlines::deadlines_of(ctx.conn, board)? else {
        return Ok(None);
    };
    let Some(to_move) = deadlines.to_move else {
        return Ok(None);
    };
    let now = ctx.now;
    let call = if schedule::draw_timed_out(&deadlines, now) {
        Some(Call::DrawByTimeout)
    } else if crate::store::clocks::has_control(ctx.conn, deadlines.board)? {
        controlled_call(ctx.conn, &deadlines, to_move, now)?
    } else {
        legacy_call(ctx.conn, &deadlines, to_move, now)?
    };
    Ok(call.map(|call| (deadlines, call)))
}

/// Does what `call` says on the board of `deadlines`; its mails go to
/// `ctx.out` (or wait for the end of a mail, in a mail's handling).
fn act_on(ctx: &mut Ctx<'_>, deadlines: &TurnDeadlines, call: Call) -> Result<Acted, ServiceError> {
    let now = ctx.now;
    let (acted, mails) = match call {
        Call::Remind {
            this_turn,
            text,
            daily,
        } => {
            if daily {
                crate::store::clocks::set_reminded(ctx.conn, deadlines.board, this_turn, now)?;
            } else {
                store::deadlines::set_nags_sent(ctx.conn, deadlines.board, this_turn)?;
            }
            (
                Acted::Reminded,
                board_mail::board_mails(ctx, deadlines.board, Occasion::Nag(text))?,
            )
        }
        Call::LossOnTime { loser, reason } => {
            let board = boards::get(ctx.conn, deadlines.board)?.ok_or_else(|| {
                ServiceError::CorruptGame {
                    board: deadlines.board,
                    reason: "the board vanished during the sweep".into(),
                }
            })?;
            let score = if board.color_of(loser) == Some(Color::White) {
                "0-1"
            } else {
                "1-0"
            };
            end_game(
                ctx,
                deadlines.board,
                Ending::Played {
                    score,
                    reason: &reason,
                },
            )?;
            (
                Acted::LostOnTime,
                board_mail::board_mails(ctx, deadlines.board, Occasion::Update)?,
            )
        }
        Call::DrawByTimeout => {
            let reason = format!(
                "draw: the offer was not answered within {}",
                crate::render::count(deadlines.forfeit_days, "day")
            );
            end_game(
                ctx,
                deadlines.board,
                Ending::Played {
                    score: "1/2-1/2",
                    reason: &reason,
                },
            )?;
            (
                Acted::DrawnByTimeout,
                board_mail::board_mails(ctx, deadlines.board, Occasion::Update)?,
            )
        }
    };
    ctx.out.extend(mails);
    Ok(acted)
}

/// What the sweep does on one board.
enum Call {
    /// Remind the player to move with `text`; `this_turn` reminders are
    /// counted for the turn, and with a time control (`daily`) the time
    /// is kept for the rule of one reminder a day.
    Remind {
        this_turn: u32,
        text: String,
        daily: bool,
    },
    LossOnTime {
        loser: PlayerId,
        reason: String,
    },
    DrawByTimeout,
}

/// What a board without a time control calls for: a reminder every
/// `nag_days`, the loss after `forfeit_days` of its turn, as always.
fn legacy_call(
    conn: &Connection,
    deadlines: &TurnDeadlines,
    to_move: PlayerId,
    now: OffsetDateTime,
) -> Result<Option<Call>, ServiceError> {
    let away = store::deadlines::honoured_vacations(
        conn,
        deadlines.board,
        deadlines.last_turn_at,
        to_move,
    )?;
    Ok(match schedule::due(deadlines, now, &away) {
        Due::Nothing => None,
        Due::Nag(reminders) => {
            let player = players::by_id(conn, to_move)?;
            let text = format!(
                // "moves" is a verb here, not a count.
                "Reminder: {} has not moved on board {} for {}. The game is lost on time on {} unless {} moves.",
                player.userid,
                deadlines.board,
                crate::render::count(
                    schedule::running_time(deadlines.last_turn_at, now, &away).whole_days(),
                    "day",
                ),
                readable_time(schedule::forfeit_at(deadlines, &away, now)),
                player.userid
            );
            Some(Call::Remind {
                this_turn: reminders,
                text,
                daily: false,
            })
        }
        Due::LossOnTime => {
            let loser = players::by_id(conn, to_move)?;
            Some(Call::LossOnTime {
                loser: to_move,
                reason: format!(
                    "lost on time: {} did not move within {}",
                    loser.userid,
                    crate::render::count(deadlines.forfeit_days, "day")
                ),
            })
        }
        Due::DrawByTimeout => Some(Call::DrawByTimeout),
    })
}

/// What a board with a time control calls for (see `clocks`): the loss on
/// time of the first player whose time ran out, at the instant it ran out
/// (even if a late turn came before the sweep), or the reminder due.
fn controlled_call(
    conn: &Connection,
    deadlines: &TurnDeadlines,
    to_move: PlayerId,
    now: OffsetDateTime,
) -> Result<Option<Call>, ServiceError> {
    let Some(board) = boards::get(conn, deadlines.board)? else {
        return Ok(None);
    };
    let Some(color) = board.color_of(to_move) else {
        return Ok(None);
    };
    let Some(BoardClock {
        clock: timed,
        stored,
    }) = clocks::board_clock(conn, &board, color, now)?
    else {
        return Ok(None);
    };
    let name = |side: Side| -> Result<(PlayerId, String), ServiceError> {
        let id = board.player(match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        });
        Ok((id, players::by_id(conn, id)?.userid))
    };
    if let Some(out) = timed.ran_out() {
        let (loser, userid) = name(out.side)?;
        return Ok(Some(Call::LossOnTime {
            loser,
            reason: format!(
                "lost on time: {userid}'s time ran out at {} ({})",
                pbem_clock::readable(out.at),
                stored.control.describe()
            ),
        }));
    }
    Ok(match timed.due(&stored.reminders, &stored.reminded) {
        ClockDue::Nothing => None,
        ClockDue::LossOnTime { side, at } => {
            let (loser, userid) = name(side)?;
            Some(Call::LossOnTime {
                loser,
                reason: format!(
                    "lost on time: {userid}'s time ran out at {} ({})",
                    pbem_clock::readable(at),
                    stored.control.describe()
                ),
            })
        }
        ClockDue::Remind { this_turn, .. } => {
            let (_, userid) = name(timed.to_move())?;
            let text = format!(
                // "moves" is a verb here, not a count.
                "Reminder: {userid} has {} left on board {} ({}). The game is lost on time at {} unless {userid} moves.",
                pbem_clock::describe(timed.left(timed.to_move())),
                deadlines.board,
                stored.control.describe(),
                pbem_clock::readable(timed.loses_at()),
            );
            Some(Call::Remind {
                this_turn,
                text,
                daily: true,
            })
        }
    })
}

/// Ends every challenge unanswered for its board's forfeit days, with no
/// result and no rating (see `challenges`); both players are told (the
/// mails wait in `ctx.later`). Returns how many lapsed.
fn lapse_unanswered(ctx: &Ctx<'_>) -> Result<usize, ServiceError> {
    let mut lapsed = 0;
    for (number, created_at, days) in boards::waiting_for_answer(ctx.conn)? {
        if challenges::after_days(created_at, days) > ctx.now {
            continue;
        }
        let Some(challenge) = boards::unaccepted(ctx.conn, number)? else {
            continue;
        };
        let who = players::by_id(ctx.conn, challenge.challenged)?.userid;
        let reason = format!(
            "the challenge lapsed: {who} did not answer it within {}; no result, not rated",
            crate::render::count(days, "day")
        );
        end_game(ctx, number, Ending::Declined { reason: &reason })?;
        let mails = board_mail::board_mails(ctx, number, Occasion::Update)?;
        ctx.send_later(mails);
        lapsed += 1;
    }
    Ok(lapsed)
}

/// The digest of one player: the boards of `boards` where it is still
/// their turn; none when the player had theirs today already, or does not
/// take the digest (looked at here, in the transaction that sends it, so a
/// `set mail` a moment before counts). Whether a digest was queued.
fn player_digest(
    ctx: &mut Ctx<'_>,
    today: &str,
    player: PlayerId,
    boards: &[BoardNumber],
) -> Result<bool, ServiceError> {
    let served = store::setting(ctx.conn, "digest_partial")?;
    let served_through = served
        .as_deref()
        .and_then(|text| text.strip_prefix(today))
        .and_then(|rest| rest.trim().parse::<i64>().ok());
    if served_through.is_some_and(|last| last >= player.0)
        || preferences::get(ctx.conn, player)?.mail != MailChoice::Digest
    {
        return Ok(false);
    }
    store::set_setting(ctx.conn, "digest_partial", &format!("{today} {}", player.0))?;
    let mut texts = Vec::new();
    for &number in boards {
        let Some(deadlines) = store::deadlines::deadlines_of(ctx.conn, number)? else {
            continue;
        };
        if deadlines.to_move != Some(player) {
            continue;
        }
        let loaded = match board_mail::load(ctx, number) {
            Ok(loaded) => loaded,
            Err(super::Failure::Fatal(error)) => return Err(error),
            Err(super::Failure::Refused(_)) => continue,
        };
        let facts = board_mail::BoardFacts::gather(ctx, &loaded)?;
        let opponent = if loaded.board.white == player {
            &facts.black
        } else {
            &facts.white
        };
        let mut text = format!(
            "Board {} ({} against {}): your turn for {}.",
            loaded.board.number,
            loaded.board.variant.display_name(),
            opponent.userid,
            crate::render::count((ctx.now - deadlines.last_turn_at).whole_days(), "day")
        );
        for line in facts.digest_lines() {
            text.push_str("\n    ");
            text.push_str(&line);
        }
        text.push_str(&format!(
            "\n    To play without a password, write your turn to {}",
            ctx.config
                .address
                .with_token(&ctx.key.token(loaded.board.number.0, player))
        ));
        texts.push((number, text));
    }
    if texts.is_empty() {
        return Ok(false);
    }
    let player = players::by_id(ctx.conn, player)?;
    let lines: Vec<&str> = texts.iter().map(|(_, text)| text.as_str()).collect();
    let text = format!(
        "It is your turn on these boards:\n\n  {}\n",
        lines.join("\n\n  ")
    );
    let mut mail = ctx.notice(
        vec![player.mail_address().to_string()],
        &format!("pbem digest for {}", player.userid),
        &text,
    )?;
    // With one board, a reply to the digest plays there (its token is
    // recorded with the position, as a board mail's is).
    if let [(number, _)] = texts.as_slice() {
        mail.reply_to = Some(
            ctx.config
                .address
                .with_token(&ctx.key.token(number.0, player.id)),
        );
    }
    ctx.out.push(mail);
    Ok(true)
}

/// The sweep's part: a Swiss round past its deadline has its unfinished
/// games scored as draws (the event's rule; the director may adjudicate
/// them before), which pairs the next round.
fn round_deadlines(ctx: &Ctx<'_>) -> Result<usize, ServiceError> {
    let mut scored = 0;
    for id in tournaments::rounds_started_before(ctx.conn, ctx.now)? {
        let event = tournaments::by_id(ctx.conn, id)?;
        let (Some(days), Some(started)) = (event.settings.round_days, event.round_started_at)
        else {
            continue;
        };
        if started + time::Duration::days(i64::from(days)) > ctx.now {
            continue;
        }
        let reason = format!(
            "the {} of round {} passed: scored as a draw by the event's rule",
            crate::render::count(days, "day"),
            event.current_round
        );
        for game in tournaments::games(ctx.conn, id)? {
            if game.round == event.current_round && game.result.is_none() {
                end_game(
                    ctx,
                    game.board,
                    Ending::Played {
                        score: "1/2-1/2",
                        reason: &reason,
                    },
                )?;
                send_board_mails(ctx, game.board, Occasion::Update)?;
                scored += 1;
            }
        }
    }
    Ok(scored)
}
