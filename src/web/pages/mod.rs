//! Each page's values, read through the reader policy ([`crate::reader`],
//! as the web: what a board shows, the lists, the standings, the counts),
//! the store's read functions for what is anyone's (events, ladders,
//! brackets) and the pure layers (rules, tournament tables, ratings
//! tables), then rendered by a template. Nothing here reads an address, a
//! password, a comment, an unaccepted challenge or a `--private` game; an
//! event's running games are loaded as far as the policy shows them to the
//! web, `--public-delay` turns behind (`load`), so every page and feed of
//! them lags alike.

use std::fmt::Display;

use rusqlite::Connection;
use serde::Serialize;
use time::OffsetDateTime;

use super::{Page, Site, WebError};
use crate::metrics::Snapshot;
use crate::ratings::Section;
use crate::reader::{self, Who};
use crate::render::ratings::section_title;
use crate::render::readable_time;
use crate::rules::Variant;
use crate::store::{self, ratings, web};

mod board;
mod events;
mod feed;
mod lists;
mod tables;
mod variants;
pub(super) use board::{Loaded, load};
pub use board::{board, board_feed};
pub(super) use events::event_named;
pub use events::{event, event_feed, event_round, event_trf, ladder};
pub use feed::site_feed;
use lists::{Pager, skipped, variant_line};
pub use lists::{events, index, ladders, players};
pub use variants::{variant, variants};

const HTML: &str = "text/html; charset=utf-8";
const ATOM: &str = "application/atom+xml; charset=utf-8";
const PLAIN: &str = "text/plain; charset=utf-8";

/// Games listed on a player's page, per page.
const PLAYER_GAMES: u32 = 100;
/// Rated games listed on a player's page.
const PLAYER_RATED_GAMES: u32 = 10;
/// Rows per section of a variant's standings, as the `ratings` mail.
const STANDINGS_ROWS: usize = 100;

/// A serializable value for a template's context.
fn value(of: impl Serialize) -> minijinja::Value {
    minijinja::Value::from(minijinja::value::Serde(of))
}

fn html(site: &Site, template: &str, context: impl Serialize) -> Result<Page, WebError> {
    Ok(Page {
        content_type: HTML,
        body: site
            .pages
            .render(template, context)
            .map_err(WebError::Failed)?,
    })
}

#[derive(Serialize)]
struct FeedEntry {
    id: String,
    title: String,
    updated: String,
    summary: String,
    link: String,
}

/// An Atom feed rendered by `template`: `entries` are given oldest first
/// and shown newest first; the feed is updated at its newest entry, or at
/// `since` while it has none.
fn atom_feed(
    site: &Site,
    template: &str,
    (id, title, link): (String, String, String),
    mut entries: Vec<FeedEntry>,
    since: OffsetDateTime,
) -> Result<Page, WebError> {
    entries.reverse();
    let updated = entries
        .first()
        .map(|e| e.updated.clone())
        .unwrap_or_else(|| store::time_text(since));
    Ok(Page {
        content_type: ATOM,
        body: site
            .pages
            .render(
                template,
                minijinja::context! {
                    id => id,
                    title => title,
                    link => link,
                    updated => updated,
                    entries => value(&entries),
                },
            )
            .map_err(WebError::Failed)?,
    })
}

#[derive(Serialize)]
struct BoardLineView {
    number: u32,
    variant: &'static str,
    white: String,
    black: String,
    result: Option<String>,
    /// Whose move it is, while the game is on.
    to_move: Option<String>,
    when: String,
}

fn line_views(lines: Vec<reader::BoardLine>) -> Vec<BoardLineView> {
    lines
        .into_iter()
        .map(|line| BoardLineView {
            number: line.number,
            variant: line.variant.spaced_name(),
            when: match (line.delayed, line.finished_at) {
                (true, _) => "shown with a delay".to_string(),
                (false, finished) => readable_time(finished.unwrap_or(line.last_turn_at)),
            },
            white: line.white,
            black: line.black,
            result: line.result,
            to_move: line.to_move,
        })
        .collect()
}

/// `/ratings`: the variants that have ratings.
pub fn rated_variants(site: &Site, conn: &Connection) -> Result<Page, WebError> {
    let variants: Vec<_> = ratings::variants(conn)?
        .into_iter()
        .map(variant_line)
        .collect();
    html(
        site,
        "ratings.html",
        minijinja::context! { variants => value(&variants) },
    )
}

#[derive(Serialize)]
struct RatingRow {
    rank: usize,
    userid: String,
    rating: i32,
    deviation: u32,
    won: u32,
    lost: u32,
    drawn: u32,
    active: u32,
}

/// `/ratings/<variant>`: the standings' sections as tables, as the
/// `ratings` mail lists them (at most `STANDINGS_ROWS` rows each).
pub fn ratings(site: &Site, conn: &Connection, variant: Variant) -> Result<Page, WebError> {
    let standings = reader::variant_standings(conn, variant, site.time_source.now())?;
    let sections: Vec<(String, Vec<RatingRow>, usize)> = [
        Section::Established,
        Section::Provisional,
        Section::Inactive,
    ]
    .into_iter()
    .map(|section| {
        let all: Vec<_> = standings.iter().filter(|(s, _)| *s == section).collect();
        let rows = all
            .iter()
            .take(STANDINGS_ROWS)
            .enumerate()
            .map(|(i, (_, e))| {
                let r = &e.standing.rating;
                RatingRow {
                    rank: i + 1,
                    userid: e.userid.clone(),
                    rating: r.shown(),
                    deviation: r.shown_deviation(),
                    won: r.wins,
                    lost: r.losses,
                    drawn: r.draws,
                    active: e.active,
                }
            })
            .collect();
        let more = all.len().saturating_sub(STANDINGS_ROWS);
        (section_title(section), rows, more)
    })
    .collect();
    html(
        site,
        "ratings.html",
        minijinja::context! {
            variant => variant.spaced_name(),
            variant_id => variant.id(),
            sections => value(&sections),
        },
    )
}

/// `/players/<userid>` (`?page=N`: a later page of their games): ratings,
/// rated games, games, events.
pub fn player(site: &Site, conn: &Connection, userid: &str, page: u32) -> Result<Page, WebError> {
    let (id, userid) = web::confirmed_player(conn, userid)?.ok_or(WebError::NotFound)?;
    let skip = skipped(page, PLAYER_GAMES)?;
    let mut games = reader::public_boards_of(conn, id, PLAYER_GAMES + 1, skip)?;
    let more = games.len() > PLAYER_GAMES as usize;
    games.truncate(PLAYER_GAMES as usize);
    let pager = Pager::new(&format!("/players/{userid}"), page, more, games.is_empty())?;
    let now = ratings::nanos(site.time_source.now());
    let standings: Vec<_> = ratings::of_player(conn, id)?
        .into_iter()
        .map(|(variant, standing)| (variant, standing.rating, standing.section(now)))
        .collect();
    // A `--private` game is left out, though its rating change stands.
    let rated = reader::rated_games_of(conn, id, Who::Web, PLAYER_RATED_GAMES)?;
    let rows = crate::reader::past_rows(&rated);
    let events: Vec<(String, String)> = web::events_of(conn, id)?;
    html(
        site,
        "player.html",
        minijinja::context! {
            userid => userid,
            ratings => value(tables::player_ratings(&standings)),
            rated_games => value(tables::rated_games(&rows)),
            games => value(line_views(games)),
            pager => value(&pager),
            events => events,
        },
    )
}

/// `/metrics`: Prometheus' text format, the store's counts and the
/// running server's counters (`running`).
pub fn metrics(conn: &Connection, running: &Snapshot) -> Result<Page, WebError> {
    let c = reader::counts(conn)?;
    let r = running;
    let mut body = String::new();
    let mut metric = |name: &str, help: &str, kind: &str, samples: &[(&str, &dyn Display)]| {
        body.push_str(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n"));
        for (labels, value) in samples {
            body.push_str(&format!("{name}{labels} {value}\n"));
        }
    };
    metric(
        "pbem_outbox_unsent",
        "Mails in the outbox not sent yet.",
        "gauge",
        &[("", &c.outbox_unsent)],
    );
    metric(
        "pbem_outbox_sent_kept",
        "Sent mails still kept in the outbox (7 days).",
        "gauge",
        &[("", &c.outbox_sent_kept)],
    );
    metric(
        "pbem_mails_processed_kept",
        "Inbound mails recorded as processed (kept 30 days).",
        "gauge",
        &[("", &c.processed_kept)],
    );
    metric(
        "pbem_boards",
        "Public games, by state (private games and unaccepted challenges left out).",
        "gauge",
        &[
            ("{state=\"running\"}", &c.boards_running),
            ("{state=\"finished\"}", &c.boards_finished),
        ],
    );
    metric(
        "pbem_players",
        "Players with a confirmed address.",
        "gauge",
        &[("", &c.players)],
    );
    metric(
        "pbem_events",
        "Events, by status.",
        "gauge",
        &[
            ("{status=\"open\"}", &c.events_open),
            ("{status=\"running\"}", &c.events_running),
            ("{status=\"finished\"}", &c.events_finished),
        ],
    );
    metric(
        "pbem_mails_in_total",
        "Mails taken in since the server started.",
        "counter",
        &[("", &r.mails_in)],
    );
    metric(
        "pbem_mails_answered_total",
        "Mails answered since the server started.",
        "counter",
        &[("", &r.answered)],
    );
    metric(
        "pbem_mails_refused_total",
        "Mails with a refused command, or not acted on, since the server started.",
        "counter",
        &[("", &r.refused)],
    );
    metric(
        "pbem_outbox_held",
        "Outbox mails held back until their next try (refused or put off by the mail server).",
        "gauge",
        &[("", &r.held)],
    );
    metric(
        "pbem_sweeps_total",
        "Deadline sweeps run since the server started.",
        "counter",
        &[("", &r.sweeps)],
    );
    let seconds = |micros: u64| micros as f64 / 1e6;
    metric(
        "pbem_sweep_seconds_total",
        "Time the deadline sweeps took in all.",
        "counter",
        &[("", &seconds(r.sweep_micros_total))],
    );
    metric(
        "pbem_sweep_last_duration_seconds",
        "How long the last deadline sweep took.",
        "gauge",
        &[("", &seconds(r.last_sweep_micros))],
    );
    Ok(Page {
        content_type: "text/plain; version=0.0.4; charset=utf-8",
        body,
    })
}
