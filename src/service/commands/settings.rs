//! The act of `settings`: the speaker's preferences and addresses.

use super::{Act, Asked};
use crate::command::settings::Settings;
use crate::domain::{MailChoice, Preferences};
use crate::mail::outgoing::Outgoing;
use crate::service::{Failure, MailCtx};
use crate::store::preferences;

/// `settings ...`: shows the speaker's preferences.
impl Act for Settings {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let speaker = &self.speaker;

        let player = ctx.speaker(speaker, asked.token, None)?;
        let chosen = preferences::get(ctx.conn, player.id)?;
        let text = format!(
            "{}\nAddresses:\n{}",
            describe(&player.userid, chosen),
            crate::service::bounces::address_lines(ctx.conn, &player)?
        );
        Ok(vec![ctx.notice_to_sender("pbem settings", &text)?])
    }
}

/// The preferences of `userid` in words, with how to change them.
pub(super) fn describe(userid: &str, chosen: Preferences) -> String {
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
