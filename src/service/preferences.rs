//! `set` and `settings`: each player's mail preferences (board style,
//! every turn or the daily digest, PGN attached to finished games).

use super::{Failure, MailCtx};
use crate::command::{Change, SetPreference, Speaker};
use crate::domain::{BoardNumber, MailChoice, PlayerId, Preferences};
use crate::mail::outgoing::Outgoing;

use crate::store::preferences;

/// `set ...`: changes one preference of the speaker and says what holds now.
pub(super) fn set(
    ctx: &mut MailCtx<'_>,
    command: &SetPreference,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let player = ctx.speaker(&command.speaker, token, None)?;
    let mut chosen = preferences::get(ctx.conn, player.id)?;
    match command.change {
        Change::Board(board) => chosen.board = board,
        Change::Mail(mail) => chosen.mail = mail,
        Change::Pgn(pgn) => chosen.pgn = pgn,
    }
    preferences::set(ctx.conn, player.id, chosen)?;
    let text = format!(
        "Your preferences are changed.\n\n{}",
        describe(&player.userid, chosen)
    );
    Ok(vec![ctx.notice_to_sender("pbem settings", &text)?])
}

/// `settings ...`: shows the speaker's preferences.
pub(super) fn settings(
    ctx: &mut MailCtx<'_>,
    speaker: &Speaker,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let player = ctx.speaker(speaker, token, None)?;
    let chosen = preferences::get(ctx.conn, player.id)?;
    let text = format!(
        "{}\nAddresses:\n{}",
        describe(&player.userid, chosen),
        super::bounces::address_lines(ctx.conn, &player)?
    );
    Ok(vec![ctx.notice_to_sender("pbem settings", &text)?])
}

/// The preferences of `userid` in words, with how to change them.
fn describe(userid: &str, chosen: Preferences) -> String {
    let board = match chosen.board.word() {
        "ascii" => "ascii (the text board only)",
        "compact" => "compact (the small text board only)",
        "list" => "list (the pieces listed by side, for screen readers and braille)",
        _ => "html (the text board and a picture)",
    };
    let mail = match chosen.mail {
        MailChoice::Every => "every (a board mail for every turn)",
        MailChoice::Digest => {
            "digest (no mail per turn: the daily digest, reminders, new boards and results)"
        }
    };
    format!(
        "Settings of {userid}:\n  board {board}\n  mail  {mail}\n  pgn   {} (the PGN attached to a finished game's mail)\n\nChange one with: set {userid} <password> board ascii|compact|html|list\n  (or mail every|digest, or pgn on|off)\n",
        if chosen.pgn { "on" } else { "off" }
    )
}
