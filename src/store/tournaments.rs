//! Tournaments as stored: events, entries, invitations, and the games of
//! each round with their boards and results.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time, time_text};
use crate::domain::BoardNumber;
use crate::rules::Variant;
use crate::tournament::groups::FinalStage;
use crate::tournament::knockout::TieRule;
use crate::tournament::{
    ByeKind, ByeRecord, Entrant, EventResults, Format, GameRecord, GameResult, Tiebreak,
    parse_tiebreaks,
};

/// Where an event stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Open,
    Running,
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }

    fn parse(text: &str) -> Result<Status, StoreError> {
        match text {
            "open" => Ok(Status::Open),
            "running" => Ok(Status::Running),
            "finished" => Ok(Status::Finished),
            _ => Err(StoreError::Corrupt(format!("tournament status {text:?}"))),
        }
    }
}

/// An event's settings, fixed at `tournament create`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub name: String,
    pub variant: Variant,
    pub director: PlayerId,
    pub format: Format,
    pub days_per_turn: Option<u32>,
    pub nag_days: u32,
    pub forfeit_days: u32,
    pub vacation_days: Option<u32>,
    pub max_entrants: u32,
    pub rated: bool,
    pub closes_at: Option<OffsetDateTime>,
    pub invite_only: bool,
    pub tiebreaks: Vec<Tiebreak>,
    /// Swiss: days a round may last before its unfinished games are scored.
    pub round_days: Option<u32>,
    pub min_rating: Option<u32>,
    pub max_rating: Option<u32>,
    /// Chess960: the starting array of every game (given at `tournament
    /// create`, or drawn when the event starts).
    pub start_position: Option<u32>,
    /// A thematic event: the opening every game starts after (chess only).
    pub opening: Option<crate::openings::Opening>,
}

/// A stored event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub id: i64,
    pub settings: Settings,
    pub status: Status,
    pub created_at: OffsetDateTime,
    pub started_at: Option<OffsetDateTime>,
    /// Swiss: the round being played (0 before the first).
    pub current_round: u32,
    pub round_started_at: Option<OffsetDateTime>,
}

/// An entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub player: PlayerId,
    pub start_number: Option<u32>,
    pub withdrawn: bool,
    /// The rating the event seeded the player with.
    pub rating: Option<i32>,
}

/// A game of the event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub round: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    pub board: BoardNumber,
    pub result: Option<String>,
    pub forfeit: bool,
}

fn format_code(format: Format) -> (&'static str, Option<u32>) {
    match format {
        Format::RoundRobin { double: false } => ("rr", None),
        Format::RoundRobin { double: true } => ("drr", None),
        Format::Swiss { rounds } => ("swiss", Some(rounds)),
        // The cup columns say what it is (migration 0022).
        Format::Knockout { .. } | Format::Groups { .. } => ("rr", None),
    }
}

/// The cup columns of an event (migration 0022).
#[derive(Default)]
struct CupColumns {
    cup: Option<&'static str>,
    match_games: Option<u32>,
    tie: Option<&'static str>,
    groups: Option<u32>,
    advance: Option<u32>,
    groups_double: Option<bool>,
    final_stage: Option<&'static str>,
}

fn cup_code(format: Format) -> CupColumns {
    match format {
        Format::Knockout { match_games, tie } => CupColumns {
            cup: Some("knockout"),
            match_games: Some(match_games),
            tie: Some(tie.code()),
            ..CupColumns::default()
        },
        Format::Groups {
            groups,
            advance,
            double,
            final_stage,
        } => {
            let (stage, match_games, tie) = match final_stage {
                FinalStage::RoundRobin { .. } => ("rr", None, None),
                FinalStage::Knockout { match_games, tie } => {
                    ("knockout", Some(match_games), Some(tie.code()))
                }
            };
            CupColumns {
                cup: Some("groups"),
                match_games,
                tie,
                groups: Some(groups),
                advance: Some(advance),
                groups_double: Some(double),
                final_stage: Some(stage),
            }
        }
        _ => CupColumns::default(),
    }
}

pub fn insert(
    conn: &Connection,
    settings: &Settings,
    now: OffsetDateTime,
) -> Result<i64, StoreError> {
    let (format, rounds) = format_code(settings.format);
    let cup = cup_code(settings.format);
    let tiebreaks: Vec<&str> = settings.tiebreaks.iter().map(|t| t.code()).collect();
    conn.execute_cached(
        "INSERT INTO tournaments (name, variant, director_id, format, rounds, days_per_turn,
             nag_days, forfeit_days, vacation_days, max_entrants, rated, closes_at, invite_only,
             tiebreaks, status, created_at, round_days, min_rating, max_rating, cup, match_games,
             tie, groups, advance, groups_double, final_stage, start_position, opening)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 'open', ?15, ?16,
                 ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27)",
        params![
            settings.name,
            settings.variant.id(),
            settings.director.0,
            format,
            rounds,
            settings.days_per_turn,
            settings.nag_days,
            settings.forfeit_days,
            settings.vacation_days,
            settings.max_entrants,
            settings.rated,
            settings.closes_at.map(time_text),
            settings.invite_only,
            tiebreaks.join(","),
            time_text(now),
            settings.round_days,
            settings.min_rating,
            settings.max_rating,
            cup.cup,
            cup.match_games,
            cup.tie,
            cup.groups,
            cup.advance,
            cup.groups_double,
            cup.final_stage,
            settings.start_position,
            settings
                .opening
                .as_ref()
                .map(crate::openings::Opening::stored),
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

const EVENT_COLUMNS: &str = "id, name, variant, director_id, format, rounds, days_per_turn,
    nag_days, forfeit_days, vacation_days, max_entrants, rated, closes_at, invite_only, tiebreaks,
    status, created_at, started_at, round_days, min_rating, max_rating, current_round,
    round_started_at, cup, match_games, tie, groups, advance, groups_double, final_stage, start_position,
    opening";

type RawEvent = (
    (i64, String, String, i64, String, Option<u32>),
    (Option<u32>, u32, u32, Option<u32>, u32, bool),
    (Option<String>, bool, String, String, String, Option<String>),
    (Option<u32>, Option<u32>, Option<u32>, u32, Option<String>),
    (Option<String>, Option<u32>, Option<String>),
    (
        Option<u32>,
        Option<u32>,
        Option<bool>,
        Option<String>,
        Option<u32>,
        Option<String>,
    ),
);

fn raw_event(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawEvent> {
    Ok((
        (
            row.get(0)?,
            row.get(1)?,
            row.get(2)?,
            row.get(3)?,
            row.get(4)?,
            row.get(5)?,
        ),
        (
            row.get(6)?,
            row.get(7)?,
            row.get(8)?,
            row.get(9)?,
            row.get(10)?,
            row.get(11)?,
        ),
        (
            row.get(12)?,
            row.get(13)?,
            row.get(14)?,
            row.get(15)?,
            row.get(16)?,
            row.get(17)?,
        ),
        (
            row.get(18)?,
            row.get(19)?,
            row.get(20)?,
            row.get(21)?,
            row.get(22)?,
        ),
        (row.get(23)?, row.get(24)?, row.get(25)?),
        (
            row.get(26)?,
            row.get(27)?,
            row.get(28)?,
            row.get(29)?,
            row.get(30)?,
            row.get(31)?,
        ),
    ))
}

fn event_of(raw: RawEvent) -> Result<Event, StoreError> {
    let (
        (id, name, variant, director, format, rounds),
        (days_per_turn, nag_days, forfeit_days, vacation_days, max_entrants, rated),
        (closes_at, invite_only, tiebreaks, status, created_at, started_at),
        (round_days, min_rating, max_rating, current_round, round_started_at),
        (cup, match_games, tie),
        (groups, advance, groups_double, final_stage, start_position, opening),
    ) = raw;
    let corrupt = |what: String| StoreError::Corrupt(format!("tournament {name}: {what}"));
    let knockout = || -> Result<(u32, TieRule), StoreError> {
        Ok((
            match_games.ok_or_else(|| corrupt("a knockout without match_games".into()))?,
            tie.as_deref()
                .unwrap_or_default()
                .parse()
                .map_err(|_| corrupt(format!("tie {tie:?}")))?,
        ))
    };
    let format = match (cup.as_deref(), format.as_str(), rounds) {
        (Some("knockout"), _, _) => {
            let (match_games, tie) = knockout()?;
            Format::Knockout { match_games, tie }
        }
        (Some("groups"), _, _) => {
            let double = groups_double.unwrap_or(false);
            Format::Groups {
                groups: groups.ok_or_else(|| corrupt("groups without a count".into()))?,
                advance: advance.ok_or_else(|| corrupt("groups without advance".into()))?,
                double,
                final_stage: match final_stage.as_deref() {
                    Some("rr") => FinalStage::RoundRobin { double: false },
                    Some("knockout") => {
                        let (match_games, tie) = knockout()?;
                        FinalStage::Knockout { match_games, tie }
                    }
                    other => return Err(corrupt(format!("final stage {other:?}"))),
                },
            }
        }
        (Some(cup), _, _) => return Err(corrupt(format!("cup {cup:?}"))),
        (None, "rr", _) => Format::RoundRobin { double: false },
        (None, "drr", _) => Format::RoundRobin { double: true },
        (None, "swiss", Some(rounds)) => Format::Swiss { rounds },
        _ => return Err(corrupt(format!("format {format:?}"))),
    };
    Ok(Event {
        id,
        settings: Settings {
            variant: variant
                .parse()
                .map_err(|_| corrupt(format!("variant {variant:?}")))?,
            director: PlayerId(director),
            format,
            days_per_turn,
            nag_days,
            forfeit_days,
            vacation_days,
            max_entrants,
            rated,
            closes_at: closes_at.as_deref().map(parse_time).transpose()?,
            invite_only,
            tiebreaks: parse_tiebreaks(&tiebreaks).map_err(corrupt)?,
            round_days,
            min_rating,
            max_rating,
            start_position,
            opening: opening
                .as_deref()
                .and_then(crate::openings::Opening::from_stored),
            name,
        },
        status: Status::parse(&status)?,
        created_at: parse_time(&created_at)?,
        started_at: started_at.as_deref().map(parse_time).transpose()?,
        current_round,
        round_started_at: round_started_at.as_deref().map(parse_time).transpose()?,
    })
}

pub fn by_name(conn: &Connection, name: &str) -> Result<Option<Event>, StoreError> {
    let sql = format!("SELECT {EVENT_COLUMNS} FROM tournaments WHERE name = ?1");
    conn.query_row_cached(&sql, [name], raw_event)
        .optional()?
        .map(event_of)
        .transpose()
}

pub fn by_id(conn: &Connection, id: i64) -> Result<Event, StoreError> {
    let sql = format!("SELECT {EVENT_COLUMNS} FROM tournaments WHERE id = ?1");
    event_of(conn.query_row_cached(&sql, [id], raw_event)?)
}

/// Events of one status, newest first, at most `limit` of them.
pub fn list(conn: &Connection, status: Status, limit: u32) -> Result<Vec<Event>, StoreError> {
    let sql = format!(
        "SELECT {EVENT_COLUMNS} FROM tournaments WHERE status = ?1 ORDER BY id DESC LIMIT ?2"
    );
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map(params![status.as_str(), limit], raw_event)?;
    rows.map(|row| event_of(row?)).collect()
}

/// How many events have `status`.
pub fn count(conn: &Connection, status: Status) -> Result<u32, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM tournaments WHERE status = ?1",
        [status.as_str()],
        |row| row.get(0),
    )?)
}

/// How many events `director` directs that are not finished.
pub fn live_events_of(conn: &Connection, director: PlayerId) -> Result<u32, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM tournaments WHERE director_id = ?1 AND status != 'finished'",
        [director.0],
        |row| row.get(0),
    )?)
}

/// Records a broadcast to the players of `event`.
pub fn record_broadcast(
    conn: &Connection,
    event: i64,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO tournament_broadcasts (tournament_id, sent_at) VALUES (?1, ?2)",
        params![event, time_text(now)],
    )?;
    Ok(())
}

/// How many broadcasts `event` had since `since`.
pub fn broadcasts_since(
    conn: &Connection,
    event: i64,
    since: OffsetDateTime,
) -> Result<u32, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM tournament_broadcasts WHERE tournament_id = ?1 AND sent_at > ?2",
        params![event, time_text(since)],
        |row| row.get(0),
    )?)
}

/// Forgets the broadcasts sent before `before` (only the last day's count).
pub fn prune_broadcasts(conn: &Connection, before: OffsetDateTime) -> Result<usize, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM tournament_broadcasts WHERE sent_at < ?1",
        [time_text(before)],
    )?)
}

pub fn set_status(
    conn: &Connection,
    id: i64,
    status: Status,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    let column = match status {
        Status::Open => "created_at",
        Status::Running => "started_at",
        Status::Finished => "finished_at",
    };
    conn.execute_cached(
        &format!("UPDATE tournaments SET status = ?2, {column} = ?3 WHERE id = ?1"),
        params![id, status.as_str(), time_text(now)],
    )?;
    Ok(())
}

/// The entries, by start number once there are start numbers (then by
/// entry).
pub fn entries(conn: &Connection, event: i64) -> Result<Vec<Entry>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT player_id, start_number, withdrawn_at IS NOT NULL, rating FROM tournament_entries
         WHERE tournament_id = ?1 ORDER BY start_number, entered_at, player_id",
    )?;
    let rows = statement.query_map([event], |row| {
        Ok(Entry {
            player: PlayerId(row.get(0)?),
            start_number: row.get(1)?,
            withdrawn: row.get(2)?,
            rating: row.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn add_entry(
    conn: &Connection,
    event: i64,
    player: PlayerId,
    start_number: Option<u32>,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO tournament_entries (tournament_id, player_id, start_number, entered_at)
         VALUES (?1, ?2, ?3, ?4)",
        params![event, player.0, start_number, time_text(now)],
    )?;
    Ok(())
}

/// Removes an entry; whether there was one.
pub fn remove_entry(conn: &Connection, event: i64, player: PlayerId) -> Result<bool, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM tournament_entries WHERE tournament_id = ?1 AND player_id = ?2",
        params![event, player.0],
    )? > 0)
}

pub fn set_start_number(
    conn: &Connection,
    event: i64,
    player: PlayerId,
    number: u32,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE tournament_entries SET start_number = ?3 WHERE tournament_id = ?1 AND player_id = ?2",
        params![event, player.0, number],
    )?;
    Ok(())
}

pub fn set_withdrawn(
    conn: &Connection,
    event: i64,
    player: PlayerId,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE tournament_entries SET withdrawn_at = ?3 WHERE tournament_id = ?1 AND player_id = ?2",
        params![event, player.0, time_text(now)],
    )?;
    Ok(())
}

pub fn invite(conn: &Connection, event: i64, player: PlayerId) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT OR IGNORE INTO tournament_invites (tournament_id, player_id) VALUES (?1, ?2)",
        params![event, player.0],
    )?;
    Ok(())
}

/// How many players `event` has invited.
pub fn invitations(conn: &Connection, event: i64) -> Result<u32, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM tournament_invites WHERE tournament_id = ?1",
        [event],
        |row| row.get(0),
    )?)
}

pub fn is_invited(conn: &Connection, event: i64, player: PlayerId) -> Result<bool, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM tournament_invites WHERE tournament_id = ?1 AND player_id = ?2",
            params![event, player.0],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

pub fn add_game(conn: &Connection, event: i64, game: &Game) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO tournament_games (tournament_id, round, white_id, black_id, board, result, forfeit)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            event,
            game.round,
            game.white.0,
            game.black.0,
            game.board,
            game.result,
            game.forfeit
        ],
    )?;
    Ok(())
}

const GAME_COLUMNS: &str = "round, white_id, black_id, board, result, forfeit";

fn game_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<Game> {
    Ok(Game {
        round: row.get(0)?,
        white: PlayerId(row.get(1)?),
        black: PlayerId(row.get(2)?),
        board: row.get(3)?,
        result: row.get(4)?,
        forfeit: row.get(5)?,
    })
}

/// The event's games, by round and board.
pub fn games(conn: &Connection, event: i64) -> Result<Vec<Game>, StoreError> {
    let sql = format!(
        "SELECT {GAME_COLUMNS} FROM tournament_games WHERE tournament_id = ?1 ORDER BY round, board"
    );
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map([event], game_of)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The event and game a board belongs to, if it is a tournament board.
pub fn game_of_board(
    conn: &Connection,
    board: BoardNumber,
) -> Result<Option<(i64, Game)>, StoreError> {
    let sql =
        format!("SELECT tournament_id, {GAME_COLUMNS} FROM tournament_games WHERE board = ?1");
    Ok(conn
        .query_row_cached(&sql, [board], |row| {
            let event: i64 = row.get(0)?;
            let game = Game {
                round: row.get(1)?,
                white: PlayerId(row.get(2)?),
                black: PlayerId(row.get(3)?),
                board: row.get(4)?,
                result: row.get(5)?,
                forfeit: row.get(6)?,
            };
            Ok((event, game))
        })
        .optional()?)
}

pub fn set_game_result(
    conn: &Connection,
    board: BoardNumber,
    result: &str,
    forfeit: bool,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE tournament_games SET result = ?2, forfeit = ?3 WHERE board = ?1",
        params![board, result, forfeit],
    )?;
    Ok(())
}

/// The vacation allowance of every active tournament board that has one:
/// board -> (days, when the event started).
pub fn vacation_allowances(
    conn: &Connection,
) -> Result<HashMap<BoardNumber, (u32, OffsetDateTime)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT g.board, t.vacation_days, t.started_at FROM tournament_games g
         JOIN tournaments t ON t.id = g.tournament_id
         WHERE g.result IS NULL AND t.vacation_days IS NOT NULL AND t.started_at IS NOT NULL",
    )?;
    let rows = statement.query_map([], |row| {
        Ok((
            row.get::<_, BoardNumber>(0)?,
            row.get::<_, u32>(1)?,
            row.get::<_, String>(2)?,
        ))
    })?;
    let mut map = HashMap::new();
    for row in rows {
        let (board, days, started) = row?;
        map.insert(board, (days, parse_time(&started)?));
    }
    Ok(map)
}

/// The vacation allowance of one board, when it is an unfinished game of
/// an event that has one: (days, when the event started).
pub fn vacation_allowance_of(
    conn: &Connection,
    board: BoardNumber,
) -> Result<Option<(u32, OffsetDateTime)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT t.vacation_days, t.started_at FROM tournament_games g
         JOIN tournaments t ON t.id = g.tournament_id
         WHERE g.board = ?1 AND g.result IS NULL
           AND t.vacation_days IS NOT NULL AND t.started_at IS NOT NULL",
    )?;
    let row = statement
        .query_row([board], |row| {
            Ok((row.get::<_, u32>(0)?, row.get::<_, String>(1)?))
        })
        .optional()?;
    row.map(|(days, started)| Ok((days, parse_time(&started)?)))
        .transpose()
}

/// The event's results as the crosstable reads them: entrants by start
/// number (by entry before the start), with their userids, and every game.
pub fn results(conn: &Connection, event: &Event) -> Result<EventResults, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT e.player_id, p.userid, e.withdrawn_at IS NOT NULL, e.rating FROM tournament_entries e
         JOIN players p ON p.id = e.player_id
         WHERE e.tournament_id = ?1 ORDER BY e.start_number, e.entered_at, e.player_id",
    )?;
    let rows = statement.query_map([event.id], |row| {
        Ok((
            PlayerId(row.get(0)?),
            row.get::<_, String>(1)?,
            row.get::<_, bool>(2)?,
            row.get::<_, Option<i32>>(3)?,
        ))
    })?;
    let mut index: HashMap<PlayerId, usize> = HashMap::new();
    let mut entrants = Vec::new();
    for row in rows {
        let (player, name, withdrawn, rating) = row?;
        index.insert(player, entrants.len());
        entrants.push(Entrant {
            name,
            rating: rating.and_then(|r| u32::try_from(r).ok()),
            withdrawn,
        });
    }
    let mut records = Vec::new();
    for game in games(conn, event.id)? {
        let (Some(&white), Some(&black)) = (index.get(&game.white), index.get(&game.black)) else {
            continue;
        };
        let result = match game.result.as_deref() {
            None => GameResult::Pending,
            Some(score) => GameResult::from_score(score, game.forfeit),
        };
        records.push(GameRecord {
            round: game.round,
            white,
            black,
            board: Some(game.board.0),
            result,
        });
    }
    let mut bye_records = Vec::new();
    for (round, player, kind) in byes(conn, event.id)? {
        if let Some(&player) = index.get(&player) {
            bye_records.push(ByeRecord {
                round,
                player,
                kind,
            });
        }
    }
    Ok(EventResults {
        format: event.settings.format,
        entrants,
        games: records,
        byes: bye_records,
        tiebreaks: event.settings.tiebreaks.clone(),
    })
}

/// Fixes the Chess960 array of every game of the event (drawn at its start).
pub fn set_start_position(conn: &Connection, id: i64, position: u32) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE tournaments SET start_position = ?2 WHERE id = ?1",
        params![id, position],
    )?;
    Ok(())
}

/// Records the round being played (Swiss) and when it started.
pub fn set_round(
    conn: &Connection,
    event: i64,
    round: u32,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE tournaments SET current_round = ?2, round_started_at = ?3 WHERE id = ?1",
        params![event, round, time_text(now)],
    )?;
    Ok(())
}

pub fn set_rating(
    conn: &Connection,
    event: i64,
    player: PlayerId,
    rating: i32,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE tournament_entries SET rating = ?3 WHERE tournament_id = ?1 AND player_id = ?2",
        params![event, player.0, rating],
    )?;
    Ok(())
}

fn bye_code(kind: ByeKind) -> &'static str {
    match kind {
        ByeKind::Full => "full",
        ByeKind::Half => "half",
        ByeKind::Zero => "zero",
    }
}

pub fn add_bye(
    conn: &Connection,
    event: i64,
    round: u32,
    player: PlayerId,
    kind: ByeKind,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT OR REPLACE INTO tournament_byes (tournament_id, round, player_id, kind)
         VALUES (?1, ?2, ?3, ?4)",
        params![event, round, player.0, bye_code(kind)],
    )?;
    Ok(())
}

/// Takes back the byes of `round` (a round that could not be paired).
pub fn remove_byes(conn: &Connection, event: i64, round: u32) -> Result<(), StoreError> {
    conn.execute_cached(
        "DELETE FROM tournament_byes WHERE tournament_id = ?1 AND round = ?2",
        params![event, round],
    )?;
    Ok(())
}

/// The event's byes: (round, player, kind), by round.
pub fn byes(conn: &Connection, event: i64) -> Result<Vec<(u32, PlayerId, ByeKind)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT round, player_id, kind FROM tournament_byes WHERE tournament_id = ?1
         ORDER BY round, player_id",
    )?;
    let rows = statement.query_map([event], |row| {
        Ok((
            row.get::<_, u32>(0)?,
            PlayerId(row.get(1)?),
            row.get::<_, String>(2)?,
        ))
    })?;
    rows.map(|row| {
        let (round, player, kind) = row?;
        let kind = match kind.as_str() {
            "full" => ByeKind::Full,
            "half" => ByeKind::Half,
            "zero" => ByeKind::Zero,
            other => return Err(StoreError::Corrupt(format!("bye kind {other:?}"))),
        };
        Ok((round, player, kind))
    })
    .collect()
}

/// Running Swiss events whose round started before `before`.
pub fn rounds_started_before(
    conn: &Connection,
    before: OffsetDateTime,
) -> Result<Vec<i64>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT id FROM tournaments WHERE status = 'running' AND format = 'swiss'
         AND round_days IS NOT NULL AND round_started_at IS NOT NULL AND round_started_at < ?1",
    )?;
    let rows = statement.query_map([time_text(before)], |row| row.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Records `player` as seed `seed` of the event's final stage.
pub fn add_finalist(
    conn: &Connection,
    event: i64,
    player: PlayerId,
    seed: u32,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO tournament_finalists (tournament_id, player_id, seed) VALUES (?1, ?2, ?3)",
        params![event, player.0, seed],
    )?;
    Ok(())
}

/// The players of the event's final stage in seed order (empty before it).
pub fn finalists(conn: &Connection, event: i64) -> Result<Vec<PlayerId>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT player_id FROM tournament_finalists WHERE tournament_id = ?1 ORDER BY seed",
    )?;
    let rows = statement.query_map([event], |row| Ok(PlayerId(row.get(0)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
