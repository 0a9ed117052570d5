//! The act of `pgn`: the board's game as PGN.

use super::{Act, Asked};
use crate::command::pgn::Pgn;
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self};
use crate::service::play::load_to_read;
use crate::service::{Failure, MailCtx};
use crate::store::players::{self};

impl Act for Pgn {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        let (loaded, _) = load_to_read(ctx, number)?;
        let white = players::by_id(ctx.conn, loaded.board.white)?.userid;
        let black = players::by_id(ctx.conn, loaded.board.black)?.userid;
        let pgn = board_mail::pgn_text(ctx, &loaded, white, black, None)?;
        let subject = format!("{} Board {number} pgn", loaded.board.variant.display_name());
        Ok(vec![ctx.notice_to_sender(&subject, &pgn)?])
    }
}
