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
use crate::reader::{self, Who};
use crate::render::ratings::{past_table, player_table};
use crate::render::readable_time;
use crate::rules::Variant;
use crate::store::tournaments::{self as events, Event, Status};
use crate::store::{self, ladders, ratings, web};
use crate::tournament::{ByeKind, Crosstable, Format, text};

mod board;
mod lists;
pub(super) use board::{Loaded, load};
pub use board::{board, board_feed};
use lists::{Pager, skipped, variant_line};
pub use lists::{events, index, ladders, players};

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

#[derive(Serialize)]
struct LadderGameView {
    board: u32,
    challenger: String,
    challenger_place: usize,
    defender: String,
    defender_place: usize,
}

/// `/ladders/<name>`: the rules, the order (top first, as `ladder show`
/// mails it) and the games the ladder waits for. Userids only.
pub fn ladder(site: &Site, conn: &Connection, name: &str) -> Result<Page, WebError> {
    let ladder = ladders::by_name(conn, name)?.ok_or(WebError::NotFound)?;
    let s = &ladder.settings;
    let order = ladders::order(conn, &ladder)?;
    let mut settings: Vec<(String, String)> = vec![
        (
            "Variant".into(),
            format!("{}, rated", s.variant.spaced_name()),
        ),
        ("Owner".into(), web::userid(conn, s.owner)?),
        (
            "Reach".into(),
            format!("challenge up to {} places above", s.reach),
        ),
        (
            "Open games".into(),
            format!("at most {} per player", s.max_open),
        ),
    ];
    match (&s.time_control, s.days_per_turn) {
        (Some(control), _) => settings.push(("Time".into(), format!("--time={control}"))),
        (None, Some(days)) => settings.push(("Days per turn".into(), days.to_string())),
        (None, None) => {}
    }
    let place = |rung: &ladders::Rung| {
        order
            .players()
            .iter()
            .position(|p| p == rung)
            .map_or(0, |i| i + 1)
    };
    let games: Vec<LadderGameView> = ladders::open_games(conn, ladder.id)?
        .into_iter()
        .map(|game| LadderGameView {
            board: game.board.0,
            challenger_place: place(&game.challenger),
            defender_place: place(&game.defender),
            challenger: game.challenger.userid,
            defender: game.defender.userid,
        })
        .collect();
    html(
        site,
        "ladder.html",
        minijinja::context! {
            name => s.name.clone(),
            settings => settings,
            players => order.players().len(),
            order => order.text(),
            games => value(&games),
        },
    )
}

pub(super) fn event_named(conn: &Connection, name: &str) -> Result<Event, WebError> {
    events::by_name(conn, name)?.ok_or(WebError::NotFound)
}

#[derive(Serialize)]
struct EntrantView {
    start: Option<u32>,
    userid: String,
    rating: Option<i32>,
    withdrawn: bool,
}

#[derive(Serialize)]
struct PairingView {
    board: u32,
    white: String,
    black: String,
    result: String,
}

#[derive(Serialize)]
struct RoundView {
    round: u32,
    games: Vec<PairingView>,
    byes: Vec<String>,
}

/// `/events/<name>`: settings, entrants, pairings by round, crosstable
/// and standings (a cup: its bracket, or its groups and final stage).
pub fn event(site: &Site, conn: &Connection, name: &str) -> Result<Page, WebError> {
    let event = event_named(conn, name)?;
    let s = &event.settings;
    let mut settings: Vec<(String, String)> = vec![
        ("Variant".into(), s.variant.spaced_name().into()),
        ("Format".into(), s.format.describe()),
        ("Status".into(), event.status.as_str().into()),
        ("Director".into(), web::userid(conn, s.director)?),
        ("Rated".into(), if s.rated { "yes" } else { "no" }.into()),
        ("Places".into(), s.max_entrants.to_string()),
        ("Days before a reminder".into(), s.nag_days.to_string()),
        (
            "Days before a loss on time".into(),
            s.forfeit_days.to_string(),
        ),
    ];
    if let Some(days) = s.days_per_turn {
        settings.push(("Days per turn".into(), days.to_string()));
    }
    if let Some(days) = s.round_days {
        settings.push(("Days per round".into(), days.to_string()));
    }
    if let Some(days) = s.vacation_days {
        settings.push(("Vacation days in the event".into(), days.to_string()));
    }
    if let Some(closes) = s.closes_at {
        settings.push(("Entries close".into(), readable_time(closes)));
    }
    if s.invite_only {
        settings.push(("Entry".into(), "by invitation".into()));
    }
    if let Some(started) = event.started_at {
        settings.push(("Started".into(), readable_time(started)));
    }
    let delay = web::public_delay(conn, event.id)?;
    if delay > 0 {
        settings.push((
            "Running games shown".into(),
            format!("{delay} turns behind (finished games in full)"),
        ));
    }
    if event.current_round > 0 && event.status == Status::Running {
        settings.push(("Round being played".into(), event.current_round.to_string()));
    }

    let mut entrants = Vec::new();
    for entry in events::entries(conn, event.id)? {
        entrants.push(EntrantView {
            start: entry.start_number,
            userid: web::userid(conn, entry.player)?,
            rating: entry.rating,
            withdrawn: entry.withdrawn,
        });
    }
    let mut rounds: Vec<RoundView> = Vec::new();
    let round_of = |rounds: &mut Vec<RoundView>, round: u32| -> usize {
        match rounds.iter().position(|r| r.round == round) {
            Some(i) => i,
            None => {
                rounds.push(RoundView {
                    round,
                    games: Vec::new(),
                    byes: Vec::new(),
                });
                rounds.len() - 1
            }
        }
    };
    for game in events::games(conn, event.id)? {
        let i = round_of(&mut rounds, game.round);
        rounds[i].games.push(PairingView {
            board: game.board.0,
            white: web::userid(conn, game.white)?,
            black: web::userid(conn, game.black)?,
            result: match (&game.result, game.forfeit) {
                (None, _) => "in progress".to_string(),
                (Some(r), _) if r == "-" => "cancelled".to_string(),
                (Some(r), false) => r.clone(),
                (Some(r), true) => format!("{r} (forfeit)"),
            },
        });
    }
    for (round, player, kind) in events::byes(conn, event.id)? {
        let i = round_of(&mut rounds, round);
        let kind = match kind {
            ByeKind::Full => "bye (1)",
            ByeKind::Half => "bye (½)",
            ByeKind::Zero => "bye (0)",
        };
        rounds[i]
            .byes
            .push(format!("{} {kind}", web::userid(conn, player)?));
    }
    rounds.sort_by_key(|r| r.round);

    let results = events::results(conn, &event)?;
    let table = Crosstable::compute(&results);
    let started = event.status != Status::Open;
    // A cup shows what `tournament show` mails: the bracket, or each
    // group's crosstable and the final stage's table or bracket.
    let cup = match crate::store::cups::groups_text(conn, &event)? {
        Some(groups) => Some(("Groups and final stage", groups)),
        None => crate::store::cups::bracket_text(conn, &event)?.map(|b| ("Bracket", b)),
    };
    html(
        site,
        "event.html",
        minijinja::context! {
            name => s.name.clone(),
            settings => settings,
            entrants => value(&entrants),
            rounds => value(&rounds),
            started => started,
            cup_heading => cup.as_ref().map(|(heading, _)| *heading),
            cup => cup.as_ref().map(|(_, text)| text.clone()),
            crosstable => started.then(|| text::crosstable(&table)),
            standings => started.then(|| text::standings(&table)),
            legend => started.then(|| text::legend(&table)),
            finished_games => table.finished_games,
            games => table.games,
            has_trf => started && matches!(s.format, Format::Swiss { .. }),
            // `/events/<name>.pgn` answers 404 while there is no game.
            has_pgn => rounds.iter().any(|r| !r.games.is_empty()),
        },
    )
}

/// `/events/<name>.trf`: a started Swiss event as a FIDE TRF, as the
/// `tournament trf` mail sends it.
pub fn event_trf(conn: &Connection, name: &str) -> Result<Page, WebError> {
    let event = event_named(conn, name)?;
    let Format::Swiss { rounds } = event.settings.format else {
        return Err(WebError::NotFound);
    };
    if event.status == Status::Open {
        return Err(WebError::NotFound);
    }
    let results = events::results(conn, &event)?;
    let trf = crate::tournament::swiss::trf(&results, &event.settings.name, rounds);
    Ok(Page {
        content_type: PLAIN,
        body: crate::pairing::trf::write(&trf),
    })
}

/// `/events/<name>.atom`: the start, and one entry per game that ended.
pub fn event_feed(site: &Site, conn: &Connection, name: &str) -> Result<Page, WebError> {
    let event = event_named(conn, name)?;
    let name = &event.settings.name;
    let link = format!("/events/{name}");
    let games = events::games(conn, event.id)?;
    let mut entries = Vec::new();
    if let Some(started) = event.started_at {
        entries.push(FeedEntry {
            id: format!("urn:pbem:event:{}:start", event.id),
            title: format!("{name} started"),
            updated: store::time_text(started),
            summary: format!("{name} started with {} games.", games.len()),
            link: link.clone(),
        });
    }
    for (board, ended) in web::event_game_ends(conn, event.id)? {
        let Some(game) = games.iter().find(|g| g.board.0 == board) else {
            continue;
        };
        let white = web::userid(conn, game.white)?;
        let black = web::userid(conn, game.black)?;
        let result = game.result.as_deref().unwrap_or("*");
        entries.push(FeedEntry {
            id: format!("urn:pbem:event:{}:board:{board}", event.id),
            title: format!("{name} round {}: {white} - {black} {result}", game.round),
            updated: store::time_text(ended),
            summary: format!(
                "Board {board}, round {}: {white} - {black} {result}",
                game.round
            ),
            link: format!("/boards/{board}"),
        });
    }
    atom_feed(
        site,
        "event.atom.xml",
        (
            format!("urn:pbem:event:{}", event.id),
            format!("pbem event {name}"),
            link,
        ),
        entries,
        event.created_at,
    )
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

/// `/ratings/<variant>`: the standings' sections, as the `ratings` mail.
pub fn ratings(site: &Site, conn: &Connection, variant: Variant) -> Result<Page, WebError> {
    let sections: Vec<(String, String)> =
        reader::variant_sections(conn, variant, site.time_source.now(), STANDINGS_ROWS)?;
    html(
        site,
        "ratings.html",
        minijinja::context! {
            variant => variant.spaced_name(),
            variant_id => variant.id(),
            sections => sections,
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
            ratings => (!standings.is_empty()).then(|| player_table(&standings)),
            rated_games => (!rows.is_empty()).then(|| past_table(&rows)),
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
