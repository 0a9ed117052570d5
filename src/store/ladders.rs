//! Ladders as stored: each ladder's rules, its order of players (rungs),
//! and its games with their boards and what they did to the order.

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, time_text};
use crate::domain::BoardNumber;
use crate::rules::Variant;
use crate::tournament::ladder::{Challenge, Ladder};

/// A ladder's rules, fixed at `ladder create`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderSettings {
    pub name: String,
    pub variant: Variant,
    pub owner: PlayerId,
    pub reach: u32,
    pub max_open: u32,
    /// Days each turn may take; `None`: the server's default.
    pub days_per_turn: Option<u32>,
    /// The `--time` control as pbem-clock writes it, if one was given.
    pub time_control: Option<String>,
}

/// A stored ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredLadder {
    pub id: i64,
    pub settings: LadderSettings,
}

/// A player on a ladder (or in one of its games), with the userid the
/// ladder's messages name them by.
#[derive(Clone, Debug)]
pub struct Rung {
    pub player: PlayerId,
    pub userid: String,
}

/// Players are the same player by id alone.
impl PartialEq for Rung {
    fn eq(&self, other: &Rung) -> bool {
        self.player == other.player
    }
}

impl Eq for Rung {}

impl std::fmt::Display for Rung {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.userid)
    }
}

/// A ladder game the ladder still waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenGame {
    pub board: BoardNumber,
    pub challenger: Rung,
    pub defender: Rung,
}

/// A ladder game as its board's end sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LadderGame {
    pub ladder: i64,
    pub challenger: PlayerId,
    pub defender: PlayerId,
}

pub fn insert(
    conn: &Connection,
    settings: &LadderSettings,
    now: OffsetDateTime,
) -> Result<i64, StoreError> {
    conn.execute_cached(
        "INSERT INTO ladders (name, variant, owner_id, reach, max_open, days_per_turn,
             time_control, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            settings.name,
            settings.variant.id(),
            settings.owner.0,
            settings.reach,
            settings.max_open,
            settings.days_per_turn,
            settings.time_control,
            time_text(now),
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

const LADDER_COLUMNS: &str =
    "id, name, variant, owner_id, reach, max_open, days_per_turn, time_control";

type RawLadder = (
    i64,
    String,
    String,
    i64,
    u32,
    u32,
    Option<u32>,
    Option<String>,
);

fn raw_ladder(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawLadder> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
        row.get(7)?,
    ))
}

fn ladder_of(raw: RawLadder) -> Result<StoredLadder, StoreError> {
    let (id, name, variant, owner, reach, max_open, days_per_turn, time_control) = raw;
    let variant = variant
        .parse()
        .map_err(|_| StoreError::Corrupt(format!("ladder {name:?} has variant {variant:?}")))?;
    Ok(StoredLadder {
        id,
        settings: LadderSettings {
            name,
            variant,
            owner: PlayerId(owner),
            reach,
            max_open,
            days_per_turn,
            time_control,
        },
    })
}

/// The ladder called `name` (any case).
pub fn by_name(conn: &Connection, name: &str) -> Result<Option<StoredLadder>, StoreError> {
    conn.query_row_cached(
        &format!("SELECT {LADDER_COLUMNS} FROM ladders WHERE name = ?1"),
        [name],
        raw_ladder,
    )
    .optional()?
    .map(ladder_of)
    .transpose()
}

pub fn by_id(conn: &Connection, id: i64) -> Result<StoredLadder, StoreError> {
    ladder_of(conn.query_row_cached(
        &format!("SELECT {LADDER_COLUMNS} FROM ladders WHERE id = ?1"),
        [id],
        raw_ladder,
    )?)
}

/// Every ladder, by name.
pub fn all(conn: &Connection) -> Result<Vec<StoredLadder>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {LADDER_COLUMNS} FROM ladders ORDER BY name"
    ))?;
    let raws = statement
        .query_map([], raw_ladder)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    raws.into_iter().map(ladder_of).collect()
}

/// How many ladders `owner` made.
pub fn count_of_owner(conn: &Connection, owner: PlayerId) -> Result<u32, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM ladders WHERE owner_id = ?1",
        [owner.0],
        |row| row.get(0),
    )?)
}

/// The ladder's players, top first.
pub fn rungs(conn: &Connection, ladder: i64) -> Result<Vec<Rung>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT r.player_id, p.userid FROM ladder_rungs r JOIN players p ON p.id = r.player_id
         WHERE r.ladder_id = ?1 ORDER BY r.place",
    )?;
    let rungs = statement
        .query_map([ladder], |row| {
            Ok(Rung {
                player: PlayerId(row.get(0)?),
                userid: row.get(1)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rungs)
}

/// The ladder's order and open games as `tournament::ladder` plays them,
/// checked as the crate builds them: for the commands, `ladder show` and
/// the web site's ladder page alike.
pub fn order(conn: &Connection, ladder: &StoredLadder) -> Result<Ladder<Rung>, StoreError> {
    let rungs = rungs(conn, ladder.id)?;
    let open = open_games(conn, ladder.id)?
        .into_iter()
        .map(|game| Challenge {
            challenger: game.challenger,
            defender: game.defender,
        })
        .collect();
    Ladder::restore(ladder.settings.reach, ladder.settings.max_open, rungs, open).map_err(|e| {
        StoreError::Corrupt(format!(
            "ladder {:?} does not restore: {e}",
            ladder.settings.name
        ))
    })
}

/// Writes the ladder's order anew, `players` top first.
pub fn set_order(conn: &Connection, ladder: i64, players: &[Rung]) -> Result<(), StoreError> {
    conn.execute_cached("DELETE FROM ladder_rungs WHERE ladder_id = ?1", [ladder])?;
    for (index, rung) in players.iter().enumerate() {
        conn.execute_cached(
            "INSERT INTO ladder_rungs (ladder_id, place, player_id) VALUES (?1, ?2, ?3)",
            params![ladder, index as i64 + 1, rung.player.0],
        )?;
    }
    Ok(())
}

/// The ladder games the ladder still waits for, oldest first.
pub fn open_games(conn: &Connection, ladder: i64) -> Result<Vec<OpenGame>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT g.board, g.challenger_id, c.userid, g.defender_id, d.userid
         FROM ladder_games g
         JOIN players c ON c.id = g.challenger_id
         JOIN players d ON d.id = g.defender_id
         WHERE g.ladder_id = ?1 AND g.outcome IS NULL ORDER BY g.board",
    )?;
    let games = statement
        .query_map([ladder], |row| {
            Ok(OpenGame {
                board: row.get(0)?,
                challenger: Rung {
                    player: PlayerId(row.get(1)?),
                    userid: row.get(2)?,
                },
                defender: Rung {
                    player: PlayerId(row.get(3)?),
                    userid: row.get(4)?,
                },
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(games)
}

pub fn add_game(
    conn: &Connection,
    ladder: i64,
    board: BoardNumber,
    challenger: PlayerId,
    defender: PlayerId,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO ladder_games (board, ladder_id, challenger_id, defender_id)
         VALUES (?1, ?2, ?3, ?4)",
        params![board, ladder, challenger.0, defender.0],
    )?;
    Ok(())
}

/// The ladder game on `board` whose result the ladder still waits for.
pub fn open_game_of_board(
    conn: &Connection,
    board: BoardNumber,
) -> Result<Option<LadderGame>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT ladder_id, challenger_id, defender_id FROM ladder_games
             WHERE board = ?1 AND outcome IS NULL",
            [board],
            |row| {
                Ok(LadderGame {
                    ladder: row.get(0)?,
                    challenger: PlayerId(row.get(1)?),
                    defender: PlayerId(row.get(2)?),
                })
            },
        )
        .optional()?)
}

/// The name of the ladder `board` is a game of, if any.
pub fn ladder_name_of_board(
    conn: &Connection,
    board: BoardNumber,
) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT l.name FROM ladder_games g JOIN ladders l ON l.id = g.ladder_id
             WHERE g.board = ?1",
            [board],
            |row| row.get(0),
        )
        .optional()?)
}

/// Records what became of the ladder game on `board`.
pub fn set_outcome(conn: &Connection, board: BoardNumber, outcome: &str) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE ladder_games SET outcome = ?2 WHERE board = ?1",
        params![board, outcome],
    )?;
    Ok(())
}

/// The outcome of every open ladder game of `player` on `ladder`
/// becomes `left`: the games play on, the ladder no longer counts them.
pub fn detach_games_of(
    conn: &Connection,
    ladder: i64,
    player: PlayerId,
) -> Result<u32, StoreError> {
    let changed = conn.execute_cached(
        "UPDATE ladder_games SET outcome = 'left'
         WHERE ladder_id = ?1 AND outcome IS NULL AND (challenger_id = ?2 OR defender_id = ?2)",
        params![ladder, player.0],
    )?;
    Ok(changed as u32)
}

/// Every unfinished game of the ladder as (challenger, defender): those
/// it waits for and those whose player left while they were on (they play
/// on as ordinary games). A challenge counts them all, so that leaving and
/// joining again starts nothing the ladder's limits would not allow.
pub fn unfinished_games(
    conn: &Connection,
    ladder: i64,
) -> Result<Vec<(PlayerId, PlayerId)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT g.challenger_id, g.defender_id
         FROM ladder_games g JOIN boards b ON b.number = g.board
         WHERE g.ladder_id = ?1
           AND (g.outcome IS NULL OR (g.outcome = 'left' AND b.result IS NULL))
         ORDER BY g.board",
    )?;
    let games = statement
        .query_map([ladder], |row| {
            Ok((PlayerId(row.get(0)?), PlayerId(row.get(1)?)))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(games)
}
