//! The act of `set`: one of the speaker's preferences.

use super::settings::describe;
use super::{Act, Asked};
use crate::command::{Change, SetPreference};
use crate::mail::outgoing::Outgoing;
use crate::service::{Failure, MailCtx};
use crate::store::preferences;

/// `set ...`: changes one preference of the speaker and says what holds now.
impl Act for SetPreference {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let player = ctx.speaker(&self.speaker, asked.token, None)?;
        let mut chosen = preferences::get(ctx.conn, player.id)?;
        match self.change {
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
}
