//! Error mails: the answer to a refused command, with the board it is
//! about as the sender sees it and the sender's words quoted, every
//! password blanked.

use serde::Serialize;

use super::Heading;
use super::load::load;
use super::views::{BoardFacts, Reader, render_board};
use crate::command::blank::Blanking;
use crate::domain::{BoardChoice, BoardNumber};
use crate::mail::outgoing::Outgoing;
use crate::render::board::BoardStyle;
use crate::service::{Failure, MailCtx, Refusal, ServiceError};
use crate::store::boards;
use crate::store::ladders;
use crate::store::players;
use crate::store::preferences;
use crate::store::tournaments;

#[derive(Serialize)]
struct ErrorView {
    error: String,
    board: Option<u32>,
    variant: &'static str,
    board_text: String,
    quoted: Vec<String>,
    not_quoted: &'static str,
}

/// The error reply for a refused command.
pub fn error_mail(ctx: &MailCtx<'_>, refusal: &Refusal) -> Result<Outgoing, ServiceError> {
    let shown = match refusal.board {
        Some(number) => board_for_sender(ctx, number)?.map(|(_, body)| (number, body)),
        None => None,
    };
    let variant = match shown {
        Some((number, _)) => {
            boards::get(ctx.conn, number)?.map_or("", |board| board.variant.display_name())
        }
        None => "",
    };
    let rendered = ctx.templates.render(
        "error.txt",
        ErrorView {
            error: ctx.shown_refusal(&refusal.message),
            board: shown.as_ref().map(|(number, _)| number.0),
            variant,
            board_text: shown.map(|(_, body)| body).unwrap_or_default(),
            quoted: quote_blanked(ctx)?,
            not_quoted: NOT_QUOTED,
        },
    )?;
    Ok(Outgoing {
        to: vec![ctx.sender.to_string()],
        subject: rendered.subject,
        body: rendered.body,
        reply_to: None,
        in_reply_to: Some(ctx.mail.message_id.clone()),
        references: vec![ctx.mail.message_id.clone()],
        ..Outgoing::default()
    })
}

/// Board `number` as the sender sees it (from their side when they play
/// there): its Subject and body; `None` when there is no such board.
pub fn board_for_sender(
    ctx: &MailCtx<'_>,
    number: BoardNumber,
) -> Result<Option<(String, String)>, ServiceError> {
    let loaded = match load(ctx, number) {
        Ok(loaded) => loaded,
        Err(Failure::Fatal(error)) => return Err(error),
        Err(Failure::Refused(_)) => return Ok(None),
    };
    let reader = players::by_address(ctx.conn, ctx.sender)?
        .filter(|p| loaded.board.color_of(p.id).is_some());
    // A player's text board style holds here too (a screen reader's user
    // who chose the list gets no drawn board); the picture's readers get
    // the text board, an error mail having no HTML part.
    let style = match &reader {
        Some(player) => match preferences::get(ctx.conn, player.id)?.board {
            BoardChoice::Compact => BoardStyle::Compact,
            BoardChoice::List => BoardStyle::List,
            BoardChoice::Ascii | BoardChoice::Html => BoardStyle::Full,
        },
        None => BoardStyle::Full,
    };
    let reader = reader.as_ref().map_or(Reader::Observer, Reader::Player);
    let facts = BoardFacts::gather(ctx, &loaded)?;
    let rendered = render_board(ctx, &loaded, &facts, reader, style, &Heading::Plain)?;
    Ok(Some(rendered))
}

/// The mail's subject and the sender's own words (the first 60 lines),
/// with every password blanked (see [`crate::command::blank`]).
pub fn quote_blanked(ctx: &MailCtx<'_>) -> Result<Vec<String>, ServiceError> {
    if !ctx.trusted {
        return Ok(Vec::new());
    }
    let lines = ctx.mail.command_lines();
    let subject = ctx.mail.subject.trim_end();
    // The Subject as the commands were read from it: behind the client's
    // `Re:`, which stays in the quote.
    let command = crate::command::reading::strip_reply_prefixes(subject);
    let prefix = &subject[..subject.len() - command.len()];
    let blanking = blanking_of(
        ctx,
        std::iter::once(command).chain(lines.iter().map(String::as_str)),
    )?;
    let mut quoted = vec![format!("Subject: {prefix}{}", blanking.line(command))];
    quoted.extend(lines.iter().take(60).map(|line| blanking.line(line)));
    Ok(quoted)
}

/// What an answer says instead of quoting the mail to a sender that is
/// not trusted (`MailCtx::trusted`).
pub const NOT_QUOTED: &str = "Your mail is not quoted back: pbem quotes a mail only to a registered address of the player it proves.";

/// The blanking of a mail of `lines`, by what its commands' logins proved
/// so far, which of its lines were read as reply forms, and, for a
/// trusted sender, which of its words the store knows as names (a
/// mistaken line keeps those).
pub fn blanking_of<'a>(
    ctx: &MailCtx<'_>,
    lines: impl IntoIterator<Item = &'a str>,
) -> Result<Blanking, ServiceError> {
    let lines: Vec<&str> = lines.into_iter().collect();
    let by_token = matches!(ctx.reply_token(), Some(Ok((_, player)))
        if players::by_id(ctx.conn, player)?.owns_address(ctx.sender));
    let blanking = Blanking::of_mail(lines.iter().copied(), logged_in(ctx))
        .with_token(by_token)
        .with_replies(&ctx.replies);
    // Only a sender the mail trusts sees which names pbem knows: to any
    // other, a known userid would answer differently from an unknown one.
    let names = if ctx.trusted {
        known_names(ctx, blanking.name_candidates(lines.iter().copied()))?
    } else {
        Vec::new()
    };
    Ok(blanking.with_names(names))
}

/// Lookups of names one mail's quote may make; words past these stay
/// blanked (a hostile mail of many words costs no more).
const NAME_LOOKUPS: usize = 200;

/// Those of `words` (lowercase) that are a player's userid, an event's or
/// a ladder's name.
fn known_names(ctx: &MailCtx<'_>, words: Vec<String>) -> Result<Vec<String>, ServiceError> {
    let mut known = Vec::new();
    for word in words.into_iter().take(NAME_LOOKUPS) {
        if players::by_userid(ctx.conn, &word)?.is_some()
            || tournaments::by_name(ctx.conn, &word)?.is_some()
            || ladders::by_name(ctx.conn, &word)?.is_some()
        {
            known.push(word);
        }
    }
    Ok(known)
}

/// The userids (as written) that logged in with the mail so far.
pub fn logged_in(ctx: &MailCtx<'_>) -> Vec<String> {
    ctx.login_outcomes
        .iter()
        .filter(|(_, good)| *good)
        .map(|(userid, _)| userid.clone())
        .collect()
}
