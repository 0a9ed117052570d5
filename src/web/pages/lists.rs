//! The site's lists: the front page, `/events`, `/players`, `/ladders`
//! and `/variants`. A list that can grow without bound is cut into pages
//! (`?page=N`, 1 the first) with previous and next links; a page past the
//! end is 404, as a turn past the end of a game is.

use rusqlite::Connection;
use serde::Serialize;

use super::{Page, Site, WebError, html, line_views, value};
use crate::reader;
use crate::rules::Variant;
use crate::store::tournaments::{self as events, Status};
use crate::store::{ladders, web};

/// Games listed on the front page per page, of each kind (running,
/// finished).
pub(super) const FRONT_GAMES: u32 = 20;
/// Finished events listed on `/events` per page, as the `tournaments`
/// mail lists them.
const FINISHED_EVENTS: u32 = 200;
/// Players listed on `/players` per page.
const PLAYERS: u32 = 100;

/// The links of a page of a list: where the previous and the next page
/// are, if there are any.
#[derive(Serialize)]
pub(super) struct Pager {
    page: u32,
    previous: Option<String>,
    next: Option<String>,
}

impl Pager {
    /// Page `page` of the list at `path`, `more` when a later page has
    /// something on it. A page past the first with `empty` lists is 404.
    pub(super) fn new(path: &str, page: u32, more: bool, empty: bool) -> Result<Pager, WebError> {
        if page > 1 && empty {
            return Err(WebError::NotFound);
        }
        let link = |n: u32| match n {
            1 => path.to_string(),
            n => format!("{path}?page={n}"),
        };
        Ok(Pager {
            page,
            previous: (page > 1).then(|| link(page - 1)),
            next: more.then(|| link(page + 1)),
        })
    }
}

/// How many rows pages before `page` hold, `per_page` each; a page so far
/// that no list reaches it is 404.
pub(super) fn skipped(page: u32, per_page: u32) -> Result<u32, WebError> {
    page.saturating_sub(1)
        .checked_mul(per_page)
        .ok_or(WebError::NotFound)
}

/// At most `limit` of `rows`, and whether there were more (the rows were
/// read one past the limit to know it).
fn cut<T>(mut rows: Vec<T>, limit: u32) -> (Vec<T>, bool) {
    let more = rows.len() > limit as usize;
    rows.truncate(limit as usize);
    (rows, more)
}

#[derive(Serialize)]
struct EventLine {
    name: String,
    status: &'static str,
    variant: &'static str,
    format: String,
    entrants: usize,
}

fn event_line(conn: &Connection, event: events::Event) -> Result<EventLine, WebError> {
    Ok(EventLine {
        entrants: events::entries(conn, event.id)?.len(),
        status: event.status.as_str(),
        variant: event.settings.variant.spaced_name(),
        format: event.settings.format.describe(),
        name: event.settings.name,
    })
}

fn event_lines(conn: &Connection, status: Status) -> Result<Vec<EventLine>, WebError> {
    events::list(conn, status, u32::MAX)?
        .into_iter()
        .map(|event| event_line(conn, event))
        .collect()
}

#[derive(Serialize)]
pub(super) struct VariantLine {
    id: &'static str,
    name: &'static str,
    description: &'static str,
}

pub(super) fn variant_line(v: Variant) -> VariantLine {
    VariantLine {
        id: v.id(),
        name: v.spaced_name(),
        description: v.description(),
    }
}

/// `/` and `/?page=N`: running and open events, the running and the
/// finished games (a page of each), variants.
pub fn index(site: &Site, conn: &Connection, page: u32) -> Result<Page, WebError> {
    let skip = skipped(page, FRONT_GAMES)?;
    let (running, more_running) = cut(
        reader::running_boards(conn, FRONT_GAMES + 1, skip)?,
        FRONT_GAMES,
    );
    let (finished, more_finished) = cut(
        reader::finished_boards(conn, FRONT_GAMES + 1, skip)?,
        FRONT_GAMES,
    );
    let pager = Pager::new(
        "/",
        page,
        more_running || more_finished,
        running.is_empty() && finished.is_empty(),
    )?;
    let variants: Vec<VariantLine> = Variant::ALL.into_iter().map(variant_line).collect();
    html(
        site,
        "index.html",
        minijinja::context! {
            running_events => value(event_lines(conn, Status::Running)?),
            open_events => value(event_lines(conn, Status::Open)?),
            running => value(line_views(running)),
            finished => value(line_views(finished)),
            pager => value(&pager),
            variants => value(&variants),
            address => site.address.clone(),
        },
    )
}

/// `/events` and `/events?page=N`: every open and running event, and a
/// page of the finished ones (the newest first).
pub fn events(site: &Site, conn: &Connection, page: u32) -> Result<Page, WebError> {
    let skip = skipped(page, FINISHED_EVENTS)?;
    let upto = skip.saturating_add(FINISHED_EVENTS).saturating_add(1);
    let listed: Vec<events::Event> = events::list(conn, Status::Finished, upto)?
        .into_iter()
        .skip(skip as usize)
        .collect();
    let (listed, more) = cut(listed, FINISHED_EVENTS);
    let pager = Pager::new("/events", page, more, listed.is_empty())?;
    let finished = listed
        .into_iter()
        .map(|event| event_line(conn, event))
        .collect::<Result<Vec<_>, _>>()?;
    html(
        site,
        "events.html",
        minijinja::context! {
            open => value(event_lines(conn, Status::Open)?),
            running => value(event_lines(conn, Status::Running)?),
            finished => value(&finished),
            pager => value(&pager),
            ladders => value(ladder_lines(conn)?),
        },
    )
}

#[derive(Serialize)]
struct LadderLine {
    name: String,
    variant: &'static str,
    players: usize,
}

/// Every ladder, by name: name, variant, players (as `tournaments` lists
/// them).
fn ladder_lines(conn: &Connection) -> Result<Vec<LadderLine>, WebError> {
    ladders::all(conn)?
        .into_iter()
        .map(|ladder| {
            Ok(LadderLine {
                players: ladders::rungs(conn, ladder.id)?.len(),
                variant: ladder.settings.variant.spaced_name(),
                name: ladder.settings.name,
            })
        })
        .collect()
}

/// `/ladders`: every ladder, linked to its page.
pub fn ladders(site: &Site, conn: &Connection) -> Result<Page, WebError> {
    html(
        site,
        "ladders.html",
        minijinja::context! { ladders => value(ladder_lines(conn)?) },
    )
}

#[derive(Serialize)]
struct PlayerLine {
    userid: String,
    games: u32,
}

/// `/players` and `/players?page=N`: every player with a public game, by
/// userid, linked to their page; nothing but the userid and the count.
pub fn players(site: &Site, conn: &Connection, page: u32) -> Result<Page, WebError> {
    let skip = skipped(page, PLAYERS)?;
    let (players, more) = cut(web::players_with_games(conn, PLAYERS + 1, skip)?, PLAYERS);
    let pager = Pager::new("/players", page, more, players.is_empty())?;
    let players: Vec<PlayerLine> = players
        .into_iter()
        .map(|(userid, games)| PlayerLine { userid, games })
        .collect();
    html(
        site,
        "players.html",
        minijinja::context! { players => value(&players), pager => value(&pager) },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_link_to_their_neighbours_and_none_past_the_end() {
        let first = Pager::new("/players", 1, true, false).expect("page 1");
        assert_eq!(first.previous, None);
        assert_eq!(first.next.as_deref(), Some("/players?page=2"));
        let second = Pager::new("/players", 2, false, false).expect("page 2");
        assert_eq!(second.previous.as_deref(), Some("/players"));
        assert_eq!(second.next, None);
        assert!(Pager::new("/players", 1, false, true).is_ok());
        assert!(matches!(
            Pager::new("/players", 3, false, true),
            Err(WebError::NotFound)
        ));
        assert_eq!(skipped(3, 20).ok(), Some(40));
        assert!(skipped(u32::MAX, 200).is_err());
    }
}
