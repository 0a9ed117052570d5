//! The act of `note`: a private note on a board by one of its players,
//! kept for its writer alone (`crate::reader::may_read_notes`), or all of
//! the writer's notes on the board dropped.

use super::{Act, Asked};
use crate::command::Speaker;
use crate::command::note::{Note, NoteWhat};
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::load;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::notes;

/// The most characters of notes one player keeps on one board, in all.
pub const NOTE_CHARS: usize = 2_000;

impl Act for Note {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        // A reply's note the parser read as a login: the reply's player's
        // words, as written.
        let (speaker, what) = match (&self.speaker, ctx.replying_player(asked.token)?) {
            (Speaker::Password { userid, password }, Some(player))
                if !player.userid.eq_ignore_ascii_case(userid) =>
            {
                let rest = match &self.what {
                    NoteWhat::Text(text) => text.as_str(),
                    NoteWhat::Clear => "clear",
                };
                let text = format!("{userid} {password} {rest}");
                (Speaker::Token, NoteWhat::Text(text))
            }
            _ => (self.speaker.clone(), self.what.clone()),
        };
        let player = ctx.speaker(&speaker, asked.token, Some(number))?;
        let loaded = load(ctx, number)?;
        if loaded.board.color_of(player.id).is_none() {
            return Err(refuse(
                format!("{} does not play on board {number}", player.userid),
                Some(number),
            ));
        }
        let variant = loaded.board.variant.display_name();
        // A board number, not a count.
        let subject = format!("{variant} Board {number} notes");
        let text = match what {
            NoteWhat::Clear => match notes::clear(ctx.conn, number, player.id)? {
                0 => format!("You had no notes on board {number}."),
                1 => format!("Your note on board {number} was dropped."),
                n => format!(
                    "Your {} on board {number} were dropped.",
                    crate::render::count(n, "note")
                ),
            },
            NoteWhat::Text(text) => {
                let used = notes::chars(ctx.conn, number, player.id)?;
                let total = used.saturating_add(text.chars().count());
                if total > NOTE_CHARS {
                    return Err(refuse(
                        format!(
                            "your notes on board {number} may have {NOTE_CHARS} characters in all, and this one would make {total}; drop them with: note {number} <userid> <password> clear"
                        ),
                        Some(number),
                    ));
                }
                notes::add(
                    ctx.conn,
                    number,
                    player.id,
                    loaded.turns.len() as u32,
                    &text,
                    ctx.now,
                )?;
                format!(
                    "Your note on board {number} is kept ({total} of {NOTE_CHARS} characters). Only you read it: in your own board mails and in show {number}."
                )
            }
        };
        Ok(vec![ctx.notice_to_sender(&subject, &text)?])
    }
}
