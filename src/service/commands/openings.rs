//! The act of `openings`: the codes and names of the rows of the openings
//! table a code or some words match, a line each, at most [`SHOWN`] of them
//! (the moves are in the board mails of a game started after one).

use super::{Act, Asked};
use crate::command::openings::Openings;
use crate::mail::outgoing::Outgoing;
use crate::service::{Failure, MailCtx};

/// Rows listed in one answer; how many more matched is said after them.
pub const SHOWN: usize = 50;

impl Act for Openings {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let found = crate::openings::search(&self.query);
        let mut text = if found.is_empty() {
            format!(
                "No opening has the code or a name matching \"{}\".\nGive an ECO code (B90) or some words of a name (sicilian najdorf).\n",
                self.query
            )
        } else {
            format!(
                "Openings matching \"{}\" ({}):\n\n",
                self.query,
                crate::render::count_as(found.len(), "match", "matches")
            )
        };
        for opening in found.iter().take(SHOWN) {
            text.push_str(&format!("  {}\n", opening.label()));
        }
        if found.len() > SHOWN {
            text.push_str(&format!(
                "\n...and {} more; give more words to narrow the list.\n",
                found.len() - SHOWN
            ));
        }
        if !found.is_empty() {
            text.push_str(
                "\nA game starts after an opening's moves with --opening=<code or name> on challenge or tournament create, the name written with - for spaces (--opening=sicilian-najdorf); a code means its first line.\n",
            );
        }
        Ok(vec![ctx.notice_to_sender(
            &format!("pbem openings {}", self.query),
            &text,
        )?])
    }
}
