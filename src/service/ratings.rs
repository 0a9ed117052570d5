//! Ratings in the service: rating a game as it ends (called by
//! [`super::ending::end_game`], in the same transaction), and the
//! `ratings [<variant>]` (alias `standings`) and `rating <userid>`
//! commands.

use super::{Ctx, MailCtx, ServiceError};
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::render::ratings::change_line;
use crate::render::templates::Rendered;
use crate::store::players;
use crate::store::ratings;

/// Rates board `number` if it counts, and says what the game did to both
/// ratings in the board's next mail (`alice 1712 -> 1726 (+14)`).
pub(super) fn rate_result(ctx: &Ctx<'_>, number: BoardNumber) -> Result<(), ServiceError> {
    let Some(rated) = ratings::record_game(ctx.conn, number)? else {
        return Ok(());
    };
    let white = players::by_id(ctx.conn, rated.white)?;
    let black = players::by_id(ctx.conn, rated.black)?;
    let change = rated.change;
    ctx.tell(
        number,
        format!(
            "{} rating: {}",
            rated.variant.display_name(),
            change_line(&white.userid, change.white_before, change.white_after)
        ),
    );
    ctx.tell(
        number,
        format!(
            "{} rating: {}",
            rated.variant.display_name(),
            change_line(&black.userid, change.black_before, change.black_after)
        ),
    );
    Ok(())
}

/// Rows shown per section of the standings; the rest are counted.
pub(super) const STANDINGS_ROWS: usize = 100;

/// Rated games shown by `rating <userid>`.
pub(super) const RECENT_GAMES: u32 = 10;

pub(super) fn to_sender(ctx: &MailCtx<'_>, rendered: Rendered) -> Outgoing {
    Outgoing {
        to: vec![ctx.sender.to_string()],
        subject: rendered.subject,
        body: rendered.body,
        reply_to: None,
        in_reply_to: Some(ctx.mail.message_id.clone()),
        references: vec![ctx.mail.message_id.clone()],
        ..Outgoing::default()
    }
}
