//! The act of `ladders`: every ladder in a line, as anybody may see them.

use super::{Act, Asked};
use crate::command::ladders::Ladders;
use crate::mail::outgoing::Outgoing;
use crate::service::{Failure, MailCtx};
use crate::store::ladders as store;

impl Act for Ladders {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let mut body = String::new();
        for ladder in store::all(ctx.conn)? {
            let s = &ladder.settings;
            body.push_str(&format!(
                "  {:<20} {:<10} {}, {}\n",
                s.name,
                s.variant.display_name(),
                crate::render::count(store::rungs(ctx.conn, ladder.id)?.len(), "player"),
                crate::render::count(store::open_games(ctx.conn, ladder.id)?.len(), "open game"),
            ));
        }
        if body.is_empty() {
            body = "No ladders.\n".into();
        }
        Ok(vec![ctx.notice_to_sender("pbem ladders", &body)?])
    }
}
