//! The act of `rating`: one player's ratings and last rated games.

use super::{Act, Asked};
use crate::command::rating::Rating;
use crate::mail::outgoing::Outgoing;
use crate::ratings::START;
use crate::render::ratings::{past_table, player_table};
use crate::service::ratings::{RECENT_GAMES, to_sender};
use crate::service::{Failure, MailCtx};
use crate::store::players;
use crate::store::ratings;

/// `rating <userid>`: a player's rating in every variant played and the
/// last rated games. An unknown userid is answered as a player without
/// rated games (the userid as written in both): the answer never tells
/// whether a userid exists.
impl Act for Rating {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let userid = self.userid.as_str();

        let now = ratings::nanos(ctx.now);
        let (standings, games) = match players::by_userid(ctx.conn, userid)? {
            Some(player) => (
                ratings::of_player(ctx.conn, player.id)?
                    .into_iter()
                    .map(|(variant, standing)| (variant, standing.rating, standing.section(now)))
                    .collect(),
                // A private game is listed to its players only.
                crate::reader::rated_games_of(ctx.conn, player.id, ctx.who()?, RECENT_GAMES)?,
            ),
            None => (Vec::new(), Vec::new()),
        };
        let rows = crate::reader::past_rows(&games);
        let rendered = ctx.templates.render(
            "rating.txt",
            minijinja::context! {
                subject => format!("pbem rating {userid}"),
                userid => userid,
                ratings => if standings.is_empty() { String::new() } else { player_table(&standings) },
                games => past_table(&rows),
                start => START.shown(),
                start_deviation => START.shown_deviation(),
            },
        )?;
        Ok(vec![to_sender(ctx, rendered)])
    }
}
