//! The act of `history`: the board's turns with the time each was played.

use super::{Act, Asked};
use crate::command::history::History;
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::service::play::load_to_read;
use crate::service::{Failure, MailCtx};

impl Act for History {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        let (loaded, _) = load_to_read(ctx, number)?;
        let mut lines = Vec::new();
        for (turn, stored) in loaded.game.turns().iter().zip(&loaded.turns) {
            lines.push(format!(
                "{:<16} {}",
                turn.numbered(),
                crate::render::readable_time(stored.played_at)
            ));
        }
        if lines.is_empty() {
            lines.push("No turns yet.".to_string());
        }
        let subject = format!(
            "{} Board {number} history",
            loaded.board.variant.display_name()
        );
        Ok(vec![ctx.notice_to_sender(&subject, &lines.join("\n"))?])
    }
}
