//! The pages of one event or ladder: `/events/<name>` (its settings as
//! set, entrants, pairings by round, standings and crosstable as tables
//! whose names and results link to the players and games, a cup's
//! bracket, the winner once it is over), its TRF and Atom feed, and
//! `/ladders/<name>` (the order and the last results).

use rusqlite::Connection;
use serde::Serialize;

use super::tables::{GameIndex, TableView, bracket_view, table_view};
use super::{FeedEntry, PLAIN, Page, Site, WebError, atom_feed, html, value};
use crate::render::readable_time;
use crate::store::tournaments::{self as events, Event, Status};
use crate::store::{self, ladders, web};
use crate::tournament::knockout::round_name;
use crate::tournament::{ByeKind, Crosstable, Format, text};

/// Finished games listed on a ladder's page.
const LADDER_RESULTS: u32 = 20;

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
    // The order as a table: place, player, and whom they are playing.
    let rows: Vec<(usize, String, Vec<String>, Vec<String>)> = order
        .players()
        .iter()
        .enumerate()
        .map(|(i, rung)| {
            let challenged = games
                .iter()
                .filter(|g| g.challenger == rung.userid)
                .map(|g| g.defender.clone())
                .collect();
            let challenged_by = games
                .iter()
                .filter(|g| g.defender == rung.userid)
                .map(|g| g.challenger.clone())
                .collect();
            (i + 1, rung.userid.clone(), challenged, challenged_by)
        })
        .collect();
    let results: Vec<(u32, String, String, String, String)> =
        web::ladder_results(conn, ladder.id, LADDER_RESULTS)?
            .into_iter()
            .map(|r| {
                (
                    r.board,
                    r.challenger,
                    r.defender,
                    r.result,
                    readable_time(r.finished_at),
                )
            })
            .collect();
    html(
        site,
        "ladder.html",
        minijinja::context! {
            name => s.name.clone(),
            settings => settings,
            players => order.players().len(),
            order => rows,
            games => value(&games),
            results => results,
        },
    )
}

pub(crate) fn event_named(conn: &Connection, name: &str) -> Result<Event, WebError> {
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
    /// As the bracket names it in a cup ("Quarter-finals"), else
    /// "Round N".
    name: String,
    games: Vec<PairingView>,
    byes: Vec<String>,
}

/// Events of more games than this show their pairings one round at a
/// time (`?round=N`) and leave the crosstable's cells unlinked (each game
/// is linked from its round's pairings), so that a 30-player round robin
/// (435 games) keeps its page under 30 KB; smaller events show every
/// round, and link every cell, on one page.
const ALL_ROUNDS_UP_TO: usize = 100;

/// `/events/<name>`: settings, entrants, pairings by round, crosstable
/// and standings (a cup: its bracket, or its groups and final stage).
pub fn event(site: &Site, conn: &Connection, name: &str) -> Result<Page, WebError> {
    event_round(site, conn, name, None)
}

/// `/events/<name>?round=N`: [`event`] with round `N`'s pairings shown
/// where an event shows one round at a time (without `N`: the round being
/// played, else the first with a game in progress, else the last). A
/// round the event has not paired is a 404.
pub fn event_round(
    site: &Site,
    conn: &Connection,
    name: &str,
    round: Option<u32>,
) -> Result<Page, WebError> {
    let event = event_named(conn, name)?;
    let s = &event.settings;
    let mut settings: Vec<(String, String)> = vec![
        ("Variant".into(), s.variant.spaced_name().into()),
        ("Format".into(), s.format.describe()),
        ("Status".into(), event.status.as_str().into()),
        ("Director".into(), web::userid(conn, s.director)?),
        ("Rated".into(), if s.rated { "yes" } else { "no" }.into()),
        ("Places".into(), s.max_entrants.to_string()),
    ];
    // The control as `--time` set it, in words; without one, the days
    // the event's deadlines count.
    match store::clocks::event_control(conn, event.id)? {
        Some((control, _)) => settings.push(("Time control".into(), control.describe())),
        None => {
            if let Some(days) = s.days_per_turn {
                settings.push(("Days per turn".into(), days.to_string()));
            }
            settings.push(("Days before a reminder".into(), s.nag_days.to_string()));
            settings.push((
                "Days before a loss on time".into(),
                s.forfeit_days.to_string(),
            ));
        }
    }
    if !s.tiebreaks.is_empty() {
        let order: Vec<&str> = s.tiebreaks.iter().map(|t| t.name()).collect();
        settings.push(("Tiebreaks, in order".into(), order.join(", ")));
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
    if let Some(ended) = web::event_finished_at(conn, event.id)? {
        settings.push(("Finished".into(), readable_time(ended)));
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

    let mut winners: Vec<String> = Vec::new();
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
                    name: String::new(),
                    games: Vec::new(),
                    byes: Vec::new(),
                });
                rounds.len() - 1
            }
        }
    };
    let mut index = GameIndex::default();
    for game in events::games(conn, event.id)? {
        let i = round_of(&mut rounds, game.round);
        let (white, black) = (
            web::userid(conn, game.white)?,
            web::userid(conn, game.black)?,
        );
        index.add(&white, &black, game.round, game.board.0);
        rounds[i].games.push(PairingView {
            board: game.board.0,
            white,
            black,
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
    // A knockout (or a knockout final stage) shows its bracket as a table
    // per round, its rounds named as the bracket names them; groups show
    // what `tournament show` mails.
    let knockout = store::cups::bracket_of(conn, &event)?;
    let mut bracket = None;
    if let Some(cup) = &knockout {
        let mut names = Vec::with_capacity(cup.seeds.len());
        for &player in &cup.seeds {
            names.push(web::userid(conn, player)?);
        }
        bracket = Some(bracket_view(&cup.bracket, &names));
        if let Some(seed) = cup.bracket.winner {
            winners.extend(names.get(seed as usize - 1).cloned());
        }
    }
    for r in &mut rounds {
        r.name = match &knockout {
            Some(cup) if r.round > cup.offset => {
                round_name(cup.bracket.total_rounds, r.round - cup.offset)
            }
            _ => format!("Round {}", r.round),
        };
    }
    // A large event: one round's pairings, and links to the others.
    let game_count: usize = rounds.iter().map(|r| r.games.len()).sum();
    let mut round_links: Vec<(u32, String)> = Vec::new();
    let mut shown_round = None;
    if game_count > ALL_ROUNDS_UP_TO {
        let chosen = match round {
            Some(n) => n,
            None => rounds
                .iter()
                .find(|r| r.round == event.current_round && event.status == Status::Running)
                .or_else(|| {
                    rounds
                        .iter()
                        .find(|r| r.games.iter().any(|g| g.result == "in progress"))
                })
                .or(rounds.last())
                .map_or(0, |r| r.round),
        };
        round_links = rounds.iter().map(|r| (r.round, r.name.clone())).collect();
        rounds.retain(|r| r.round == chosen);
        if rounds.is_empty() && round.is_some() {
            return Err(WebError::NotFound);
        }
        shown_round = Some(chosen);
        index = GameIndex::default();
    } else if round.is_some_and(|n| !rounds.iter().any(|r| r.round == n)) {
        return Err(WebError::NotFound);
    }

    // A groups event: each group's crosstable, then a round-robin final
    // stage's (a knockout final stage is the bracket above).
    let mut groups: Vec<(String, TableView)> = Vec::new();
    if event.status != Status::Open
        && let Some(cut) = store::cups::groups_of(conn, &event)?
    {
        for (i, t) in store::cups::group_tables(conn, &event, &cut)?
            .iter()
            .enumerate()
        {
            groups.push((format!("Group {}", i + 1), table_view(t, &index)));
        }
        if let Some(t) = store::cups::final_stage_table(conn, &event)? {
            groups.push(("Final stage".to_string(), table_view(&t, &index)));
        }
    }
    let is_groups = !groups.is_empty();
    if event.status == Status::Finished && knockout.is_none() && !is_groups {
        winners.extend(
            table
                .rows
                .iter()
                .filter(|r| r.rank == 1)
                .map(|r| r.name.clone()),
        );
    }
    html(
        site,
        "event.html",
        minijinja::context! {
            name => s.name.clone(),
            settings => settings,
            entrants => value(&entrants),
            rounds => value(&rounds),
            started => started,
            groups => value(&groups),
            bracket => value(&bracket),
            winners => winners,
            table => started.then(|| value(table_view(&table, &index))),
            legend => started.then(|| text::legend(&table)),
            finished_games => table.finished_games,
            games => table.games,
            has_trf => started && matches!(s.format, Format::Swiss { .. }),
            // `/events/<name>.pgn` answers 404 while there is no game.
            has_pgn => game_count > 0,
            round_links => round_links,
            shown_round => shown_round,
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
