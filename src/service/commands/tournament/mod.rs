//! The act of `tournament create|enter|leave|invite|start|withdraw|
//! adjudicate|broadcast|show|...` (thin: the pairing and the scoring are in
//! `crate::tournament`, the rows in `store::tournaments`): creating an
//! event, entering and leaving it, the director's start, invitations,
//! withdrawals, rulings and broadcasts, and anybody's views of it. What
//! happens as an event's games end (scoring, the next round, the final
//! crosstable) is in `service::event_rounds`, below `ending`, which these
//! commands use in turn.

use time::OffsetDateTime;

use crate::command::{CreateTournament, Ruling, Speaker, Tournament, View, Withdrawal};
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::outgoing::Outgoing;
use crate::render::templates::{MAX_LINE, wrap_long_lines};
use crate::rules::Variant;
use crate::service::board_mail::{self, Occasion};
use crate::service::ending::{Ending, end_game};
use crate::service::event_rounds::{
    crosstable_text, finish_if_done, notice_to, notice_with_block, pair_next_round, results,
    seed_by_rating, send_board_mails, subject, with_token,
};
use crate::service::event_start::{NewGame, start_games};
use crate::service::{Failure, MailCtx, ServiceError, refuse};
use crate::store::players::{self, Player};
use crate::store::tournaments::{self as store, Event, Settings, Status};
use crate::tournament::{
    ByeKind, Crosstable, Format, MAX_ROUND_ROBIN, MAX_SWISS, Tiebreak, berger, text,
};

mod create;
mod director;
mod entries;
mod rounds;
mod views;

use super::{Act, Asked};
use create::{create, details};
use director::{adjudicate, broadcast, start, withdraw};
use entries::{enter, invite, leave, rating_of};
use rounds::start_swiss;
pub(super) use views::FINISHED_LISTED;
use views::show;

/// Reminder and loss-on-time days of tournament boards unless the event
/// says otherwise (docs/directors.md, "Commands").
const DEFAULT_NAG_DAYS: u32 = 1;
const DEFAULT_FORFEIT_DAYS: u32 = 7;

/// Events one director may have open or running at a time.
pub const LIVE_EVENTS_PER_DIRECTOR: u32 = 5;
/// Players one mail may invite, across all its `tournament invite` lines.
pub const INVITES_PER_MAIL: usize = crate::command::MAX_INVITES;
/// Invitations an event may hold, per player it takes.
pub const INVITES_PER_PLACE: u32 = 2;
/// Broadcasts per event in any 24 hours.
pub const BROADCASTS_PER_DAY: u32 = 3;
/// The largest view (`show`, `standings`, `crosstable`, `pgn`, `trf`), in
/// bytes, sent to an address pbem cannot tie to a player; a larger one goes
/// to a proven player's own address only.
pub const VIEW_TO_ANYONE_BYTES: usize = 16 * 1024;

/// What one mail did with tournament commands so far, for the bounds per
/// mail: one start, one broadcast, and [`INVITES_PER_MAIL`] players
/// invited, each mailed once however often the mail names them.
#[derive(Debug, Default)]
pub(in crate::service) struct MailEvents {
    started: bool,
    broadcast: bool,
    /// The players named in the mail's invitations: the event and the
    /// userid as written, lowercase.
    invited: Vec<(i64, String)>,
}

impl Act for Tournament {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        run(ctx, self, asked.token)
    }
}

fn run(
    ctx: &mut MailCtx<'_>,
    command: &Tournament,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    match command {
        Tournament::Create(c) => create(ctx, c, token),
        Tournament::Enter { name, speaker } => {
            let player = ctx.speaker(speaker, token, None)?;
            enter(ctx, name, &player)
        }
        Tournament::Leave { name, speaker } => {
            let player = ctx.speaker(speaker, token, None)?;
            leave(ctx, name, &player)
        }
        Tournament::Invite {
            name,
            director,
            players,
        } => {
            let (director, players) = reread(ctx, token, director, players.clone())?;
            let director = ctx.speaker(&director, token, None)?;
            let event = directed(ctx, name, &director)?;
            if players.is_empty() {
                return Err(refuse("name the players to invite", None));
            }
            invite(ctx, &event, &players)
        }
        Tournament::Start { name, director } => {
            let director = ctx.speaker(director, token, None)?;
            let event = directed(ctx, name, &director)?;
            if ctx.events.started {
                return Err(refuse(
                    "one tournament start per mail: start another event in another mail",
                    None,
                ));
            }
            let mails = start(ctx, &event)?;
            ctx.events.started = true;
            Ok(mails)
        }
        Tournament::Withdraw {
            name,
            director,
            player,
            how,
        } => {
            let director = ctx.speaker(director, token, None)?;
            let event = directed(ctx, name, &director)?;
            withdraw(ctx, &event, player, *how)
        }
        Tournament::Adjudicate {
            name,
            director,
            board,
            ruling,
            reason,
        } => {
            let director = ctx.speaker(director, token, None)?;
            let event = directed(ctx, name, &director)?;
            adjudicate(ctx, &event, BoardNumber(*board), *ruling, reason)
        }
        Tournament::Broadcast {
            name,
            director,
            text,
        } => {
            let words = text.split_whitespace().map(str::to_string).collect();
            let (director, words) = reread(ctx, token, director, words)?;
            let text = words.join(" ");
            if text.is_empty() {
                return Err(refuse("the text of the broadcast is missing", None));
            }
            if text.chars().count() > crate::command::MAX_BROADCAST_CHARS {
                return Err(refuse(
                    format!(
                        "a broadcast may have up to {}",
                        crate::render::count(crate::command::MAX_BROADCAST_CHARS, "character")
                    ),
                    None,
                ));
            }
            let director = ctx.speaker(&director, token, None)?;
            let event = directed(ctx, name, &director)?;
            broadcast(ctx, &event, &director, &text)
        }
        Tournament::View {
            name,
            view,
            speaker,
        } => {
            let event = named(ctx, name)?;
            show(ctx, &event, *view, speaker, token)
        }
    }
}

/// `invite` and `broadcast` as the mail means them: the parser read their
/// first two words as the director's userid and password; in a reply of a
/// player of another userid they are players or text like the rest.
fn reread(
    ctx: &MailCtx<'_>,
    token: Option<(BoardNumber, PlayerId)>,
    director: &Speaker,
    rest: Vec<String>,
) -> Result<(Speaker, Vec<String>), ServiceError> {
    if let Speaker::Password { userid, password } = director
        && let Some(player) = ctx.replying_player(token)?
        && !player.userid.eq_ignore_ascii_case(userid)
    {
        let mut words = vec![userid.clone(), password.clone()];
        words.extend(rest);
        return Ok((Speaker::Token, words));
    }
    Ok((director.clone(), rest))
}

/// The event called `name`, or a refusal naming it.
fn named(ctx: &MailCtx<'_>, name: &str) -> Result<Event, Failure> {
    store::by_name(ctx.conn, name)?
        .ok_or_else(|| refuse(format!("there is no event \"{name}\""), None))
}

/// The event called `name`, when `director` directs it.
fn directed(ctx: &MailCtx<'_>, name: &str, director: &Player) -> Result<Event, Failure> {
    let event = named(ctx, name)?;
    if event.settings.director != director.id {
        return Err(refuse(
            format!(
                "{} is not the director of the event \"{name}\"; only its director may do that",
                director.userid
            ),
            None,
        ));
    }
    Ok(event)
}

/// The answer to the sender of a command that `player` gave: with the
/// player's reply token when the sender is one of the player's addresses.
fn answer(
    ctx: &MailCtx<'_>,
    player: PlayerId,
    subject: &str,
    text: &str,
) -> Result<Outgoing, ServiceError> {
    let player = players::by_id(ctx.conn, player)?;
    let mut mail = ctx.notice_to_sender(subject, text)?;
    with_token(ctx, &mut mail, &player);
    Ok(mail)
}
