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
use shakmaty::{Color, Position};
use time::OffsetDateTime;

use super::{Page, Site, WebError, svg};
use crate::domain::BoardNumber;
use crate::metrics::Snapshot;
use crate::reader::{self, Who};
use crate::render::ratings::{past_table, player_table};
use crate::render::readable_time;
use crate::rules::notation::parse_turn;
use crate::rules::{Game, Variant};
use crate::schedule;
use crate::store::boards::{self, Board, StoredTurn};
use crate::store::tournaments::{self as events, Event, Status};
use crate::store::{self, ladders, ratings, web};
use crate::tournament::{ByeKind, Crosstable, Format, text};

const HTML: &str = "text/html; charset=utf-8";
const ATOM: &str = "application/atom+xml; charset=utf-8";
const PLAIN: &str = "text/plain; charset=utf-8";

/// Games listed on the front page, of each kind (running, finished).
const FRONT_GAMES: u32 = 20;
/// Games listed on a player's page.
const PLAYER_GAMES: u32 = 100;
/// Rated games listed on a player's page.
const PLAYER_RATED_GAMES: u32 = 10;
/// Rows per section of a variant's standings, as the `ratings` mail.
const STANDINGS_ROWS: usize = 100;
/// Finished events listed on `/events`, as the `tournaments` mail.
const FINISHED_EVENTS: u32 = 200;

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

/// A public board with its game replayed, as far as the public may see
/// it.
pub(super) struct Loaded {
    pub(super) board: Board,
    pub(super) game: Game,
    turns: Vec<StoredTurn>,
    pub(super) white: String,
    pub(super) black: String,
    /// Turns held back: its event's `--public-delay` while it runs, else 0.
    delay: u32,
}

pub(super) fn load(conn: &Connection, number: u32) -> Result<Loaded, WebError> {
    let sight = reader::board(conn, BoardNumber(number), Who::Web)?.ok_or(WebError::NotFound)?;
    let board = boards::get(conn, BoardNumber(number))?.ok_or(WebError::NotFound)?;
    let mut turns = boards::turns(conn, BoardNumber(number))?;
    // The latest turns of a delayed event game are not public yet.
    let delay = sight.hidden_turns;
    turns.truncate(sight.turns_shown(turns.len()));
    let mut game = board.initial_game();
    for turn in &turns {
        let corrupt = |e: &dyn std::fmt::Display| {
            WebError::Failed(format!("board {number} turn {}: {e}", turn.seq))
        };
        let moves = parse_turn(&turn.text).map_err(|e| corrupt(&e))?;
        game.play(&moves).map_err(|e| corrupt(&e))?;
    }
    Ok(Loaded {
        white: web::userid(conn, board.white)?,
        black: web::userid(conn, board.black)?,
        board,
        game,
        turns,
        delay,
    })
}

#[derive(Serialize)]
struct TurnRow {
    numbered: String,
    by: String,
    played_at: String,
}

#[derive(Serialize)]
struct EventRef {
    name: String,
    round: u32,
}

#[derive(Serialize)]
struct BoardView {
    number: u32,
    variant: &'static str,
    variant_id: &'static str,
    /// `Chess960 position 0 (BBQNNRKR)`: where a Chess960 game started.
    start: Option<String>,
    /// `B90 Sicilian Defense: Najdorf Variation (1.e4 ...)`: the opening
    /// a thematic game started after.
    opening: Option<String>,
    white: String,
    black: String,
    /// `white` or `black`: whose side the board is seen from.
    side: &'static str,
    other_side: &'static str,
    svg: String,
    result: Option<String>,
    end_reason: Option<String>,
    to_move: Option<String>,
    in_check: bool,
    turns: Vec<TurnRow>,
    record: String,
    started: String,
    rated: bool,
    days_per_turn: Option<u32>,
    nag_days: u32,
    forfeit_days: u32,
    reminder_at: Option<String>,
    forfeit_at: Option<String>,
    /// With a time control: `10/50 (10 turns in 50 days, ...)`, and each
    /// player's clock (userid, clock).
    control: Option<String>,
    clocks: Vec<(String, String)>,
    event: Option<EventRef>,
    /// Turns the page lags behind the running game (0: none).
    delay: u32,
}

/// `/boards/<n>`: the board from `side`, players, variant, turns,
/// deadlines, result.
pub fn board(site: &Site, conn: &Connection, number: u32, side: Color) -> Result<Page, WebError> {
    let loaded = load(conn, number)?;
    let Loaded {
        board,
        game,
        turns,
        white,
        black,
        delay,
    } = &loaded;
    let state = game.state();
    let finished = board.result.is_some();
    let check = state
        .in_check()
        .then(|| state.pos().king(state.turn()))
        .flatten();
    let label = format!(
        "{} board {} seen by {}: {}",
        board.variant.spaced_name(),
        board.number,
        if side == Color::White {
            "White"
        } else {
            "Black"
        },
        game.fen()
    );
    let (mut reminder_at, mut forfeit_at) = (None, None);
    // A delayed game's clocks and deadlines would tell when its hidden
    // turns were played.
    let control = crate::store::clocks::stored_clock(conn, BoardNumber(number))?
        .map(|stored| format!("{} ({})", stored.control, stored.control.describe()));
    let mut player_clocks = Vec::new();
    let timed = match store::deadlines::deadlines_of(conn, BoardNumber(number))? {
        Some(_) if !finished && *delay == 0 => {
            crate::store::clocks::board_clock(conn, board, state.turn(), site.time_source.now())?
        }
        _ => None,
    };
    if let Some(timed) = timed {
        for (userid, side) in [
            (white, pbem_clock::Side::White),
            (black, pbem_clock::Side::Black),
        ] {
            player_clocks.push((userid.clone(), timed.clock.line(side)));
        }
        forfeit_at = Some(pbem_clock::readable(timed.clock.loses_at()));
    } else if !finished
        && *delay == 0
        && let Some(deadlines) = store::deadlines::deadlines_of(conn, BoardNumber(number))?
    {
        let mover = board.player(state.turn());
        let away = store::deadlines::honoured_vacations(
            conn,
            BoardNumber(number),
            board.last_turn_at,
            mover,
        )?;
        let now = site.time_source.now().max(board.last_turn_at);
        reminder_at = schedule::next_nag_at(&deadlines, &away, now).map(readable_time);
        forfeit_at = Some(readable_time(schedule::forfeit_at(&deadlines, &away, now)));
    }
    let event = match events::game_of_board(conn, BoardNumber(number))? {
        Some((id, game)) => Some(EventRef {
            name: events::by_id(conn, id)?.settings.name,
            round: game.round,
        }),
        None => None,
    };
    let view = BoardView {
        number: board.number.0,
        variant: board.variant.spaced_name(),
        variant_id: board.variant.id(),
        start: crate::render::start_line(board.variant, board.options.start_position),
        opening: crate::render::opening_line(board.variant, board.options.opening.as_ref()),
        white: white.clone(),
        black: black.clone(),
        side: if side == Color::White {
            "white"
        } else {
            "black"
        },
        other_side: if side == Color::White {
            "black"
        } else {
            "white"
        },
        svg: svg::board(state.pos().board(), side, check, &label),
        result: board.result.clone(),
        end_reason: board.end_reason.clone(),
        to_move: (!finished).then(|| match state.turn() {
            Color::White => white.clone(),
            Color::Black => black.clone(),
        }),
        in_check: check.is_some(),
        turns: game
            .turns()
            .iter()
            .zip(turns)
            .map(|(played, stored)| TurnRow {
                numbered: played.numbered(),
                by: match played.mover {
                    Color::White => white.clone(),
                    Color::Black => black.clone(),
                },
                played_at: readable_time(stored.played_at),
            })
            .collect(),
        record: game.record(),
        started: readable_time(board.created_at),
        rated: board.options.rated,
        days_per_turn: board.options.days_per_turn,
        nag_days: board.options.nag_days,
        forfeit_days: board.options.forfeit_days,
        reminder_at,
        forfeit_at,
        control,
        clocks: player_clocks,
        event,
        delay: *delay,
    };
    html(site, "board.html", view)
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

/// `/boards/<n>.atom`: one entry per turn played, the newest first, and
/// the result.
pub fn board_feed(site: &Site, conn: &Connection, number: u32) -> Result<Page, WebError> {
    let loaded = load(conn, number)?;
    let Loaded {
        board,
        game,
        turns,
        white,
        black,
        ..
    } = &loaded;
    let mut entries: Vec<FeedEntry> = game
        .turns()
        .iter()
        .zip(turns)
        .map(|(played, stored)| {
            let by = match played.mover {
                Color::White => white,
                Color::Black => black,
            };
            FeedEntry {
                id: format!("urn:pbem:board:{number}:turn:{}", stored.seq),
                title: format!("Board {number}: {by} played {}", played.numbered()),
                updated: store::time_text(stored.played_at),
                summary: format!(
                    "{by} played {} on {} board {number} ({white} - {black}).",
                    played.numbered(),
                    board.variant.spaced_name()
                ),
                link: format!("/boards/{number}"),
            }
        })
        .collect();
    if let Some(result) = &board.result {
        let ended = web::finished_at(conn, number)?.unwrap_or(board.last_turn_at);
        entries.push(FeedEntry {
            id: format!("urn:pbem:board:{number}:result"),
            title: format!(
                "Board {number}: {white} - {black} {result} ({})",
                board.end_reason.as_deref().unwrap_or("")
            ),
            updated: store::time_text(ended),
            summary: game.record(),
            link: format!("/boards/{number}"),
        });
    }
    atom_feed(
        site,
        "board.atom.xml",
        (
            format!("urn:pbem:board:{number}"),
            format!(
                "{} board {number}: {white} - {black}",
                board.variant.spaced_name()
            ),
            format!("/boards/{number}"),
        ),
        entries,
        board.created_at,
    )
}

#[derive(Serialize)]
struct BoardLineView {
    number: u32,
    variant: &'static str,
    white: String,
    black: String,
    result: Option<String>,
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
        })
        .collect()
}

#[derive(Serialize)]
struct EventLine {
    name: String,
    status: &'static str,
    variant: &'static str,
    format: String,
    entrants: usize,
}

fn event_lines(conn: &Connection, status: Status, limit: u32) -> Result<Vec<EventLine>, WebError> {
    events::list(conn, status, limit)?
        .into_iter()
        .map(|event| {
            Ok(EventLine {
                entrants: events::entries(conn, event.id)?.len(),
                status: event.status.as_str(),
                variant: event.settings.variant.spaced_name(),
                format: event.settings.format.describe(),
                name: event.settings.name,
            })
        })
        .collect()
}

#[derive(Serialize)]
struct VariantLine {
    id: &'static str,
    name: &'static str,
    description: &'static str,
}

/// `/`: running and open events, running and finished games, variants.
pub fn index(site: &Site, conn: &Connection) -> Result<Page, WebError> {
    let variants: Vec<VariantLine> = Variant::ALL
        .into_iter()
        .map(|v| VariantLine {
            id: v.id(),
            name: v.spaced_name(),
            description: v.description(),
        })
        .collect();
    html(
        site,
        "index.html",
        minijinja::context! {
            running_events => value(event_lines(conn, Status::Running, u32::MAX)?),
            open_events => value(event_lines(conn, Status::Open, u32::MAX)?),
            running => value(line_views(reader::running_boards(conn, FRONT_GAMES)?)),
            finished => value(line_views(reader::finished_boards(conn, FRONT_GAMES)?)),
            variants => value(&variants),
            address => site.address.clone(),
        },
    )
}

/// `/events`: every open and running event, and the newest finished ones.
pub fn events(site: &Site, conn: &Connection) -> Result<Page, WebError> {
    let finished = event_lines(conn, Status::Finished, FINISHED_EVENTS)?;
    let more = events::count(conn, Status::Finished)?.saturating_sub(finished.len() as u32);
    html(
        site,
        "events.html",
        minijinja::context! {
            open => value(event_lines(conn, Status::Open, u32::MAX)?),
            running => value(event_lines(conn, Status::Running, u32::MAX)?),
            finished => value(&finished),
            more_finished => more,
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
            format!(
                "challenge up to {} above",
                crate::render::count(s.reach, "place")
            ),
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
            format!(
                "{} behind (finished games in full)",
                crate::render::count(delay, "turn")
            ),
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
            summary: format!(
                "{name} started with {}.",
                crate::render::count(games.len(), "game")
            ),
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
    let variants: Vec<VariantLine> = ratings::variants(conn)?
        .into_iter()
        .map(|v| VariantLine {
            id: v.id(),
            name: v.spaced_name(),
            description: v.description(),
        })
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

/// `/players/<userid>`: ratings, rated games, games, events.
pub fn player(site: &Site, conn: &Connection, userid: &str) -> Result<Page, WebError> {
    let (id, userid) = web::confirmed_player(conn, userid)?.ok_or(WebError::NotFound)?;
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
            games => value(line_views(reader::public_boards_of(conn, id, PLAYER_GAMES)?)),
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
