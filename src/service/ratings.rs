//! Ratings in the service: rating a game as it ends (called by
//! [`super::ending::end_game`], in the same transaction), and the
//! `ratings [<variant>]` (alias `standings`) and `rating <userid>`
//! commands.

use serde::Serialize;
use time::OffsetDateTime;

use super::{Ctx, Failure, MailCtx, ServiceError};
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::ratings::START;
use crate::reader;
use crate::render::ratings::{PastRow, change_line, past_table, player_table};
use crate::render::templates::Rendered;
use crate::rules::Variant;
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

#[derive(Serialize)]
struct SectionView {
    title: String,
    table: String,
}

#[derive(Serialize)]
struct TableView {
    title: String,
    sections: Vec<SectionView>,
}

/// `ratings [<variant>]`: the standings of one variant, or of every
/// variant with ratings, each in sections Established, Provisional and
/// Inactive.
pub(super) fn standings(
    ctx: &mut MailCtx<'_>,
    variant: Option<Variant>,
) -> Result<Vec<Outgoing>, Failure> {
    let variants = match variant {
        Some(variant) => vec![variant],
        None => ratings::variants(ctx.conn)?,
    };
    let mut tables = Vec::new();
    for variant in &variants {
        let sections = reader::variant_sections(ctx.conn, *variant, ctx.now, STANDINGS_ROWS)?
            .into_iter()
            .map(|(title, table)| SectionView { title, table })
            .collect();
        tables.push(TableView {
            title: format!("{} ratings", variant.display_name()),
            sections,
        });
    }
    if tables.is_empty() {
        tables.push(TableView {
            title: "No rated games yet.".to_string(),
            sections: Vec::new(),
        });
    }
    let subject = match variant {
        Some(variant) => format!("pbem ratings {}", variant.id()),
        None => "pbem ratings".to_string(),
    };
    #[derive(Serialize)]
    struct View {
        subject: String,
        tables: Vec<TableView>,
        start: i32,
        start_deviation: u32,
    }
    let rendered = ctx.templates.render(
        "ratings.txt",
        View {
            subject,
            tables,
            start: START.shown(),
            start_deviation: START.shown_deviation(),
        },
    )?;
    Ok(vec![to_sender(ctx, rendered)])
}

/// `rating <userid>`: a player's rating in every variant played and the
/// last rated games. An unknown userid is answered as a player without
/// rated games (the userid as written in both): the answer never tells
/// whether a userid exists.
pub(super) fn rating(ctx: &mut MailCtx<'_>, userid: &str) -> Result<Vec<Outgoing>, Failure> {
    let now = ratings::nanos(ctx.now);
    let (standings, games) = match players::by_userid(ctx.conn, userid)? {
        Some(player) => (
            ratings::of_player(ctx.conn, player.id)?
                .into_iter()
                .map(|(variant, standing)| (variant, standing.rating, standing.section(now)))
                .collect(),
            // A private game is listed to its players only.
            reader::rated_games_of(ctx.conn, player.id, ctx.who()?, RECENT_GAMES)?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    let rows: Vec<PastRow<'_>> = games
        .iter()
        .map(|g| PastRow {
            date: OffsetDateTime::from_unix_timestamp_nanos(i128::from(g.finished))
                .map(|t| t.date().to_string())
                .unwrap_or_default(),
            board: g.board.0,
            variant: g.variant,
            outcome: g.outcome,
            opponent: &g.opponent,
            opponent_rating: g.opponent_before,
            before: g.before,
            after: g.after,
        })
        .collect();
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

fn to_sender(ctx: &MailCtx<'_>, rendered: Rendered) -> Outgoing {
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
