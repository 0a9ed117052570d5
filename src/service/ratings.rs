//! Ratings in the service: rating a game as it ends (called by
//! [`super::ending::end_game`], in the same transaction), and the
//! `ratings [<variant>]` (alias `standings`) and `rating <userid>`
//! commands.

use super::{Ctx, ServiceError};
use crate::render::ratings::change_line;
use crate::store::players;
use crate::store::ratings;

/// Rates board `number` if it counts, and says what the game did to both
/// ratings in the board's next mail (`alice 1712 -> 1726 (+14)`).
pub(super) fn rate_result(ctx: &Ctx<'_>, number: u32) -> Result<(), ServiceError> {
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
