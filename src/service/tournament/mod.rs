//! Tournament commands by mail (thin: the pairing and the scoring are in
//! `crate::tournament`, the rows in `store::tournaments`): creating an
//! event, entering and leaving it, the director's start, invitations,
//! withdrawals, rulings and broadcasts, and anybody's views of it. And
//! [`game_ended`], which `ending::end_game` calls for every game that
//! ends, in the same transaction: it scores the game for its event, tells
//! the director, and ends the event (the final crosstable to every entrant
//! and the director) when its last game ends.

use time::OffsetDateTime;

use super::board_mail::{self, Occasion};
use super::ending::{Ending, end_game};
use super::{Ctx, Failure, ServiceError, refuse};
use crate::command::{CreateTournament, EventFilter, Ruling, Tournament, View, Withdrawal};
use crate::mail::outgoing::Outgoing;
use crate::render::templates::{MAX_LINE, wrap_long_lines};
use crate::rules::Variant;
use crate::store::boards::{self, BoardOptions};
use crate::store::deadlines;
use crate::store::players::{self, Player, PlayerId};
use crate::store::tournaments::{self as store, Event, Settings, Status};
use crate::tournament::{
    ByeKind, Crosstable, EventResults, Format, MAX_ROUND_ROBIN, MAX_SWISS, Tiebreak, berger, text,
};

mod create;
mod director;
mod entries;
mod rounds;
mod views;

use create::{create, details};
use director::{adjudicate, broadcast, start, withdraw};
use entries::{enter, invite, leave, rating_of};
use rounds::{finish_if_done, send_board_mails, start_game, start_swiss};
pub(super) use rounds::{game_ended, round_deadlines};
pub(super) use views::results;
use views::{crosstable_text, list, notice_with_block, show};

/// Reminder and loss-on-time days of tournament boards unless the event
/// says otherwise (PROTOCOL.md).
const DEFAULT_NAG_DAYS: u32 = 1;
const DEFAULT_FORFEIT_DAYS: u32 = 7;

pub(super) fn run(ctx: &mut Ctx<'_>, command: &Tournament) -> Result<Vec<Outgoing>, Failure> {
    match command {
        Tournament::Create(c) => create(ctx, c),
        Tournament::Enter { name, speaker } => {
            let player = ctx.speaker(speaker, None, None)?;
            enter(ctx, name, &player)
        }
        Tournament::Leave { name, speaker } => {
            let player = ctx.speaker(speaker, None, None)?;
            leave(ctx, name, &player)
        }
        Tournament::Invite {
            name,
            director,
            players,
        } => {
            let director = ctx.speaker(director, None, None)?;
            let event = directed(ctx, name, &director)?;
            invite(ctx, &event, players)
        }
        Tournament::Start { name, director } => {
            let director = ctx.speaker(director, None, None)?;
            let event = directed(ctx, name, &director)?;
            start(ctx, &event)
        }
        Tournament::Withdraw {
            name,
            director,
            player,
            how,
        } => {
            let director = ctx.speaker(director, None, None)?;
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
            let director = ctx.speaker(director, None, None)?;
            let event = directed(ctx, name, &director)?;
            adjudicate(ctx, &event, *board, *ruling, reason)
        }
        Tournament::Broadcast {
            name,
            director,
            text,
        } => {
            let director = ctx.speaker(director, None, None)?;
            let event = directed(ctx, name, &director)?;
            broadcast(ctx, &event, &director, text)
        }
        Tournament::View { name, view } => {
            let event = named(ctx, name)?;
            show(ctx, &event, *view)
        }
        Tournament::List(filter) => list(ctx, *filter),
    }
}

/// The event called `name`, or a refusal naming it.
fn named(ctx: &Ctx<'_>, name: &str) -> Result<Event, Failure> {
    store::by_name(ctx.conn, name)?
        .ok_or_else(|| refuse(format!("there is no event \"{name}\""), None))
}

/// The event called `name`, when `director` directs it.
fn directed(ctx: &Ctx<'_>, name: &str, director: &Player) -> Result<Event, Failure> {
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

fn subject(event: &Event, what: &str) -> String {
    format!("pbem tournament {}: {what}", event.settings.name)
}

/// A notice to someone other than the sender: it answers no mail of theirs.
fn notice_to(
    ctx: &Ctx<'_>,
    player: &Player,
    subject: &str,
    text: &str,
) -> Result<Outgoing, ServiceError> {
    let mut mail = ctx.notice(vec![player.mail_address().to_string()], subject, text)?;
    if !player.owns_address(ctx.sender) {
        mail.in_reply_to = None;
        mail.references.clear();
    }
    Ok(mail)
}
