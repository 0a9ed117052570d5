//! Threading and the record of sent mail. Every mail of a board's
//! conversation references the first mail pbem sent that reader on that
//! board (its real Message-ID, kept in `store::sent`) and the mail it
//! answers; a mail that carries a reply token is recorded with the board,
//! player and position it shows, and its lines.

use rusqlite::Connection;
use time::OffsetDateTime;

use super::{Ctx, ServiceConfig, ServiceError};
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::mail::reply::Known;
use crate::mail::token::TokenKey;
use crate::store::sent::{self, SentMail};

/// Threads a mail into its board's conversation: it references the first
/// mail of the board its reader got, and answers the sender's mail (for
/// the sender) or the reader's newest mail of the board.
pub(super) fn thread(
    ctx: &Ctx<'_>,
    mail: &mut Outgoing,
    board: BoardNumber,
    to_sender: bool,
) -> Result<(), ServiceError> {
    let Some(address) = mail.to.first().cloned() else {
        return Ok(());
    };
    let answered = match ctx.answering {
        Some(answering) if to_sender => Some(answering.message_id.to_string()),
        _ => sent::latest(ctx.conn, board, &address)?,
    };
    let mut references = Vec::new();
    references.extend(sent::thread_root(ctx.conn, board, &address)?);
    // Only the sender saw the sender's mail.
    if let Some(answering) = ctx.answering
        && !to_sender
    {
        mail.references.retain(|id| id != answering.message_id);
    }
    for id in answered.iter().chain(&mail.references) {
        if !references.contains(id) && !id.is_empty() {
            references.push(id.clone());
        }
    }
    mail.references = references;
    mail.in_reply_to = answered.or_else(|| mail.references.last().cloned());
    Ok(())
}

/// Takes back [`record_sent`]'s record of a mail that was not sent after
/// all (it could not be built).
pub(super) fn forget_sent(conn: &Connection, message_id: &str) -> Result<(), ServiceError> {
    sent::forget(conn, stored_message_id(message_id))?;
    Ok(())
}

/// A Message-ID as the record of sent mail keeps it: without brackets.
fn stored_message_id(message_id: &str) -> &str {
    message_id.trim().trim_matches(['<', '>'])
}

/// Records a mail that carries a reply token: the board, player and
/// position it shows, and its lines.
pub(super) fn record_sent(
    conn: &Connection,
    config: &ServiceConfig,
    key: &TokenKey,
    mail: &Outgoing,
    message_id: &str,
    now: OffsetDateTime,
) -> Result<(), ServiceError> {
    let Some((board, player)) = mail
        .reply_to
        .as_deref()
        .and_then(|to| config.address.token_of(to))
        .and_then(|token| key.verify(token))
    else {
        return Ok(());
    };
    let board = BoardNumber(board);
    let record = SentMail {
        message_id: stored_message_id(message_id).to_string(),
        board,
        player: Some(player),
        turn_seq: sent::turns_played(conn, board)? + 1,
        lines: Known::of_text(&mail.body).to_bytes(),
    };
    let address = mail.to.first().map_or("", String::as_str);
    sent::record(conn, &record, address, now)?;
    Ok(())
}
