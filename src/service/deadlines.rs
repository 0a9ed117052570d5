//! Applying deadlines: the sweep that reminds slow players, scores games
//! lost on time and accepts draw offers left unanswered, and the daily
//! digest. Each runs in one transaction with its mails, like a mail does,
//! so a restart between or during sweeps loses and doubles nothing.

use std::collections::HashMap;

use shakmaty::Color;
use time::OffsetDateTime;

use super::board_mail::{self, Occasion};
use super::charge::{self, Payer};
use super::ending::{Ending, end_game};
use super::passwords::PasswordCheck;
use super::queue::{Replies, queue_all};
use super::{Ctx, Service, ServiceConfig, ServiceError};
use crate::mail::inbound::Inbound;
use crate::mail::token::TokenKey;
use crate::render::templates::Templates;
use crate::schedule::{self, Due};
use crate::store::deadlines::{self, Vacation};
use crate::store::players::{self, PlayerId};
use crate::store::{self, boards};

/// What one sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    pub reminders: usize,
    pub losses_on_time: usize,
    pub draws_by_timeout: usize,
}

impl Service {
    /// Runs the deadline sweep as of `now`.
    pub fn sweep(&mut self, now: OffsetDateTime) -> Result<SweepReport, ServiceError> {
        let tx = self.store.transaction()?;
        let clocks = deadlines::active_clocks(&tx)?;
        let mut report = SweepReport::default();
        // No clock running is no reason to stop: challenges still lapse.
        let oldest = clocks.iter().map(|c| c.last_turn_at).min().unwrap_or(now);
        let system = system_mail(now, "sweep");
        let parts = (
            &self.config,
            &self.templates,
            &self.key,
            &mut self.passwords,
        );
        let mut ctx = system_ctx(parts, &tx, &system, now);
        let allowances = super::tournament::vacation_allowances(&ctx)?;
        // Vacations since the start of an event count against its
        // allowance even where they ended before every running clock
        // started (as the board mails count them).
        let from = allowances
            .values()
            .map(|&(_, since)| since)
            .fold(oldest, OffsetDateTime::min);
        let mut vacations: HashMap<PlayerId, Vec<Vacation>> = HashMap::new();
        for (player, vacation) in deadlines::vacations_ending_after(&tx, from)? {
            vacations.entry(player).or_default().push(vacation);
        }
        for clock in clocks {
            let Some(to_move) = clock.to_move else {
                continue;
            };
            let all_away = vacations.get(&to_move).map_or(&[][..], Vec::as_slice);
            // A board of an event with a vacation allowance stops its clock
            // for that many vacation days since the start of the event.
            let clipped;
            let away = match allowances.get(&clock.board) {
                Some(&(days, since)) => {
                    clipped = schedule::within_allowance(all_away, since, days);
                    &clipped[..]
                }
                None => all_away,
            };
            let mails = match schedule::due(&clock, now, away) {
                Due::Nothing => continue,
                Due::Nag(reminders) => {
                    deadlines::set_nags_sent(&tx, clock.board, reminders)?;
                    report.reminders += 1;
                    let player = players::by_id(&tx, to_move)?;
                    let text = format!(
                        "Reminder: {} has not moved on board {} for {} days. The game is lost on time on {} unless {} moves.",
                        player.userid,
                        clock.board,
                        schedule::running_time(clock.last_turn_at, now, away).whole_days(),
                        readable(schedule::forfeit_at(&clock, away, now)),
                        player.userid
                    );
                    board_mail::board_mails(&ctx, clock.board, Occasion::Nag(text))?
                }
                Due::LossOnTime => {
                    let board = boards::get(&tx, clock.board)?.ok_or_else(|| {
                        ServiceError::CorruptGame {
                            board: clock.board,
                            reason: "the board vanished during the sweep".into(),
                        }
                    })?;
                    let loser = players::by_id(&tx, to_move)?;
                    let score = if board.color_of(to_move) == Some(Color::White) {
                        "0-1"
                    } else {
                        "1-0"
                    };
                    let reason = format!(
                        "lost on time: {} did not move within {} days",
                        loser.userid, clock.forfeit_days
                    );
                    end_game(
                        &ctx,
                        clock.board,
                        Ending::Played {
                            score,
                            reason: &reason,
                        },
                    )?;
                    report.losses_on_time += 1;
                    board_mail::board_mails(&ctx, clock.board, Occasion::Update)?
                }
                Due::DrawByTimeout => {
                    let reason = format!(
                        "draw: the offer was not answered within {} days",
                        clock.forfeit_days
                    );
                    end_game(
                        &ctx,
                        clock.board,
                        Ending::Played {
                            score: "1/2-1/2",
                            reason: &reason,
                        },
                    )?;
                    report.draws_by_timeout += 1;
                    board_mail::board_mails(&ctx, clock.board, Occasion::Update)?
                }
            };
            ctx.out.extend(mails);
            let pending = ctx.pending.take();
            ctx.out.extend(pending);
        }
        // Swiss rounds past their deadline.
        super::tournament::round_deadlines(&ctx)?;
        super::challenges::lapse_unanswered(&ctx)?;
        let pending = ctx.pending.take();
        ctx.out.extend(pending);
        let mails = std::mem::take(&mut ctx.out);
        charge::record(&tx, &Payer::Pbem, &mails, now)?;
        queue_all(&tx, &self.config, &self.key, mails, now, &mut Replies::Now)?;
        tx.commit()?;
        Ok(report)
    }

    /// Sends each player a list of the boards where it is their turn, once a
    /// day at most. Returns how many digests were queued.
    pub fn digest(&mut self, now: OffsetDateTime) -> Result<usize, ServiceError> {
        let tx = self.store.transaction()?;
        let today = now.date().to_string();
        if store::setting(&tx, "digest_last_day")?.as_deref() == Some(today.as_str()) {
            return Ok(0);
        }
        store::set_setting(&tx, "digest_last_day", &today)?;
        let system = system_mail(now, "digest");
        let parts = (
            &self.config,
            &self.templates,
            &self.key,
            &mut self.passwords,
        );
        let ctx = system_ctx(parts, &tx, &system, now);
        // Per player, each board waiting: its number and what the digest
        // says of it.
        let mut waiting: HashMap<PlayerId, Vec<(u32, String)>> = HashMap::new();
        for clock in deadlines::active_clocks(&tx)? {
            let Some(to_move) = clock.to_move else {
                continue;
            };
            let loaded = match board_mail::load(&ctx, clock.board) {
                Ok(loaded) => loaded,
                Err(super::Failure::Fatal(error)) => return Err(error),
                Err(super::Failure::Refused(_)) => continue,
            };
            let facts = board_mail::BoardFacts::gather(&ctx, &loaded)?;
            let opponent = if loaded.board.white == to_move {
                &facts.black
            } else {
                &facts.white
            };
            let mut text = format!(
                "Board {} ({} against {}): your turn for {} days.",
                loaded.board.number,
                loaded.board.variant.display_name(),
                opponent.userid,
                (now - clock.last_turn_at).whole_days()
            );
            for line in facts.digest_lines() {
                text.push_str("\n    ");
                text.push_str(&line);
            }
            text.push_str(&format!(
                "\n    To play without a password, write your turn to {}",
                self.config
                    .address
                    .with_token(&self.key.token(loaded.board.number, to_move))
            ));
            waiting
                .entry(to_move)
                .or_default()
                .push((loaded.board.number, text));
        }
        let mut mails = Vec::new();
        let mut players_waiting: Vec<_> = waiting.into_iter().collect();
        players_waiting.sort_by_key(|(player, _)| *player);
        for (player, boards) in players_waiting {
            let player = players::by_id(&tx, player)?;
            let lines: Vec<&str> = boards.iter().map(|(_, text)| text.as_str()).collect();
            let text = format!(
                "It is your turn on these boards:\n\n  {}\n",
                lines.join("\n\n  ")
            );
            let mut mail = ctx.notice(
                vec![player.mail_address().to_string()],
                &format!("pbem digest for {}", player.userid),
                &text,
            )?;
            mail.in_reply_to = None;
            mail.references.clear();
            // With one board, a reply to the digest plays there (its token
            // is recorded with the position, as a board mail's is).
            if let [(number, _)] = boards.as_slice() {
                mail.reply_to = Some(
                    self.config
                        .address
                        .with_token(&self.key.token(*number, player.id)),
                );
            }
            mails.push(mail);
        }
        let count = mails.len();
        charge::record(&tx, &Payer::Pbem, &mails, now)?;
        queue_all(&tx, &self.config, &self.key, mails, now, &mut Replies::Now)?;
        tx.commit()?;
        Ok(count)
    }

    /// Records who is to move on boards created before that was recorded.
    pub(super) fn backfill_to_move(&mut self) -> Result<(), ServiceError> {
        let tx = self.store.transaction()?;
        for number in deadlines::boards_without_to_move(&tx)? {
            let Some(board) = boards::get(&tx, number)? else {
                continue;
            };
            let turns = boards::turns(&tx, number)?;
            let game = board_mail::replay(&board, &turns, turns.len())?;
            deadlines::set_to_move(&tx, number, board.player(game.state().turn()))?;
        }
        tx.commit()?;
        Ok(())
    }
}

/// A context for work the server does on its own (no mail answered).
fn system_ctx<'a>(
    service: (
        &'a ServiceConfig,
        &'a Templates,
        &'a TokenKey,
        &'a mut PasswordCheck,
    ),
    conn: &'a rusqlite::Connection,
    mail: &'a Inbound,
    now: OffsetDateTime,
) -> Ctx<'a> {
    let (config, templates, key, passwords) = service;
    Ctx {
        conn,
        config,
        templates,
        key,
        passwords,
        mail,
        sender: "",
        now,
        out: Vec::new(),
        logins: Vec::new(),
        speakers: Vec::new(),
        boards: std::cell::RefCell::new(None),
        news: std::cell::RefCell::new(Vec::new()),
        stale: None,
        login_outcomes: Vec::new(),
        events: super::tournament::MailEvents::default(),
        accounts: super::account::MailAccounts::default(),
        pending: std::cell::RefCell::new(Vec::new()),
        after_turn: std::cell::RefCell::new(None),
        trusted: true,
    }
}

/// The stand-in for "the mail being answered" when the server acts on its
/// own: nobody sent it, so no reply threads to it.
fn system_mail(now: OffsetDateTime, what: &str) -> Inbound {
    Inbound {
        message_id: format!("{what}-{}@pbem", now.unix_timestamp()),
        from: None,
        recipients: Vec::new(),
        subject: String::new(),
        body: String::new(),
        html: None,
        answers: Vec::new(),
        automatic: None,
        size: 0,
        authentication_results: Vec::new(),
    }
}

/// A time as players read it: `2026-04-01 12:03 UTC`.
pub(super) fn readable(time: OffsetDateTime) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    time.to_offset(time::UtcOffset::UTC)
        .format(&format)
        .unwrap_or_else(|_| store::time_text(time))
}
