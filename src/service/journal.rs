//! The operator's line per mail: one INFO line for each mail acted on,
//! saying what came in and what went out, for the log an operator reads
//! when a player asks "did you get my mail?".
//!
//! It carries the Message-ID (escaped: it is the sender's text, and must
//! not forge further log lines), the player the mail proved (or
//! "unproven"), each command's word and board, and the number of
//! replies. Never a command's arguments: they hold passwords, moves and
//! comments, which the log has no business keeping.

use rusqlite::Connection;

use super::ServiceError;
use super::charge::Payer;
use crate::command::Command;
use crate::store::players;

/// One command as the log names it: its word, and its board if it has one.
pub(super) fn command_entry(command: &Command, board: Option<u32>) -> String {
    let word = command.word().name();
    match board {
        Some(board) => format!("{word} {board}"),
        None => word.to_string(),
    }
}

/// What the log names a line that was no command (its text is the
/// sender's, and may hold anything).
pub(super) const NOT_A_COMMAND: &str = "?";

/// Logs the mail `message_id`, paid for by `payer`, with its `commands`
/// (see [`command_entry`]) and the number of `replies` queued.
pub(super) fn mail_handled(
    conn: &Connection,
    message_id: &str,
    payer: &Payer,
    commands: &[String],
    replies: usize,
) -> Result<(), ServiceError> {
    let player = match payer {
        Payer::Player(id) => players::by_id(conn, *id)?.userid,
        Payer::Address(_) | Payer::Pbem => "unproven".to_string(),
    };
    let commands = if commands.is_empty() {
        "none".to_string()
    } else {
        commands.join(", ")
    };
    tracing::info!(
        message_id = %message_id.escape_debug(),
        %player,
        %commands,
        replies,
        "mail handled"
    );
    Ok(())
}
