//! The act of `show`: the board now or at an earlier turn, as the sender
//! may read it.

use super::{Act, Asked};
use crate::command::Show;
use crate::domain::{BoardChoice, BoardNumber};
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, BoardFacts, Heading, Reader, render_shown};
use crate::service::play::load_to_read;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::players::{self};
use crate::store::preferences;

impl Act for Show {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        let (mut loaded, sight) = load_to_read(ctx, number)?;
        if let Some(turn) = self.turn {
            // `#k` is the position when turn #k was to be played, as board
            // mails number turns.
            let due = loaded.turns.len() + 1;
            if turn == 0 || turn as usize > due {
                return Err(refuse(
                    format!(
                        "board {number} is at turn #{due}; show {number}#k shows the position at turn #k, for k from 1 to {due}"
                    ),
                    Some(number),
                ));
            }
            let count = turn as usize - 1;
            loaded.game = board_mail::replay(&loaded.board, &loaded.turns, count)?;
            loaded.turns.truncate(count);
        }
        let reader = players::by_address(ctx.conn, ctx.sender)?
            .filter(|p| loaded.board.color_of(p.id).is_some());
        // `show ... compact` asks for the compact board; otherwise a player
        // gets the board style they chose, anyone else the picture too.
        let choice = match &reader {
            _ if self.compact => BoardChoice::Compact,
            Some(player) => preferences::get(ctx.conn, player.id)?.board,
            None => BoardChoice::Html,
        };
        // Chat and comments only for the players and the subscribers.
        let facts = BoardFacts::gather_as(ctx, &loaded, &sight)?;
        let shown = render_shown(
            ctx,
            &loaded,
            &facts,
            reader.as_ref().map_or(Reader::Observer, Reader::Player),
            choice,
            &Heading::Plain,
        )?;
        Ok(vec![Outgoing {
            to: vec![ctx.sender.to_string()],
            subject: shown.subject,
            body: shown.body,
            reply_to: None,
            in_reply_to: Some(ctx.mail.message_id.clone()),
            references: vec![ctx.mail.message_id.clone()],
            html: shown.html,
            ..Outgoing::default()
        }])
    }
}
