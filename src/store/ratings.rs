//! Ratings as stored: the current rating of each player in each variant
//! (`ratings`) and what each rated game did (`rated_games`). Both follow
//! from the rated results in `boards`: [`record_game`] rates a game as it
//! ends, in the transaction that ends it, and [`rebuild`] replays every
//! rated result in order (the time a game ended, then its board number)
//! with the same arithmetic (`crate::ratings`), so that it reproduces the
//! stored figures exactly and a second rebuild changes nothing.

use std::collections::HashMap;
use std::sync::LazyLock;

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time};
use crate::domain::BoardNumber;
use crate::ratings::{self, Change, Outcome, PlayerRating, RatedGame, Standing};
use crate::rules::Variant;

/// A player's current rating in `variant`; `None` before the player's
/// first rated game of it (rate them as [`ratings::START`]).
pub fn current(
    conn: &Connection,
    player: PlayerId,
    variant: Variant,
) -> Result<Option<PlayerRating>, StoreError> {
    Ok(standing(conn, player, variant)?.map(|s| s.rating))
}

/// A player's current standing in `variant` (rating and last rated game).
pub fn standing(
    conn: &Connection,
    player: PlayerId,
    variant: Variant,
) -> Result<Option<Standing>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT rating, deviation, volatility, games, wins, losses, draws, last_played
             FROM ratings WHERE player_id = ?1 AND variant = ?2",
            params![player.0, variant.id()],
            standing_from_row,
        )
        .optional()?)
}

fn standing_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Standing> {
    Ok(Standing {
        rating: PlayerRating {
            rating: row.get(0)?,
            deviation: row.get(1)?,
            volatility: row.get(2)?,
            games: row.get(3)?,
            wins: row.get(4)?,
            losses: row.get(5)?,
            draws: row.get(6)?,
        },
        last_played: Some(row.get(7)?),
    })
}

fn write_standing(
    conn: &Connection,
    player: PlayerId,
    variant: &str,
    standing: &Standing,
) -> Result<(), StoreError> {
    let mut statement = conn.prepare_cached(&RATINGS_UPSERT[0])?;
    bind_standing(&mut statement, 0, player, variant, standing)?;
    statement.raw_execute()?;
    Ok(())
}

/// Rows one statement writes during a rebuild. One statement per row
/// costs a statement run, and a table cursor opened and positioned, for
/// each; one statement for many keeps its cursor open between them.
/// (At most ten parameters a row: far below SQLite's limit of 32,766.)
const ROWS_PER_STATEMENT: usize = 100;

/// An upsert of `rows` rows, its parameters row after row.
fn upsert(table_and_columns: &str, columns: usize, rows: usize, key: &str, update: &str) -> String {
    let row = format!("({})", vec!["?"; columns].join(", "));
    format!(
        "INSERT INTO {table_and_columns} VALUES {} ON CONFLICT ({key}) DO UPDATE SET {update}",
        vec![row; rows].join(", ")
    )
}

/// The upserts of one rating row and of [`ROWS_PER_STATEMENT`] rows.
static RATINGS_UPSERT: LazyLock<[String; 2]> = LazyLock::new(|| {
    [1, ROWS_PER_STATEMENT].map(|rows| {
        upsert(
            "ratings (player_id, variant, rating, deviation, volatility, games, wins, losses,
                      draws, last_played)",
            10,
            rows,
            "player_id, variant",
            "rating = excluded.rating, deviation = excluded.deviation,
             volatility = excluded.volatility, games = excluded.games, wins = excluded.wins,
             losses = excluded.losses, draws = excluded.draws,
             last_played = excluded.last_played",
        )
    })
});

/// Binds one rating row as row `row` (from 0) of an upsert.
fn bind_standing(
    statement: &mut rusqlite::Statement<'_>,
    row: usize,
    player: PlayerId,
    variant: &str,
    standing: &Standing,
) -> Result<(), StoreError> {
    let r = &standing.rating;
    let first = row * 10 + 1;
    statement.raw_bind_parameter(first, player.0)?;
    statement.raw_bind_parameter(first + 1, variant)?;
    statement.raw_bind_parameter(first + 2, finite(r.rating)?)?;
    statement.raw_bind_parameter(first + 3, finite(r.deviation)?)?;
    statement.raw_bind_parameter(first + 4, finite(r.volatility)?)?;
    statement.raw_bind_parameter(first + 5, r.games)?;
    statement.raw_bind_parameter(first + 6, r.wins)?;
    statement.raw_bind_parameter(first + 7, r.losses)?;
    statement.raw_bind_parameter(first + 8, r.draws)?;
    statement.raw_bind_parameter(first + 9, standing.last_played.unwrap_or(0))?;
    Ok(())
}

/// Writes rating rows, [`ROWS_PER_STATEMENT`] to a statement.
fn write_standings(
    conn: &Connection,
    rows: &[(PlayerId, Variant, &Standing)],
) -> Result<(), StoreError> {
    let mut chunks = rows.chunks_exact(ROWS_PER_STATEMENT);
    for chunk in &mut chunks {
        let mut statement = conn.prepare_cached(&RATINGS_UPSERT[1])?;
        for (row, (player, variant, standing)) in chunk.iter().enumerate() {
            bind_standing(&mut statement, row, *player, variant.id(), standing)?;
        }
        statement.raw_execute()?;
    }
    for (player, variant, standing) in chunks.remainder() {
        write_standing(conn, *player, variant.id(), standing)?;
    }
    Ok(())
}

/// SQLite stores NaN as NULL: a figure that is not a number is refused
/// rather than lost.
fn finite(value: f64) -> Result<f64, StoreError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(StoreError::Corrupt(format!("a rating figure is {value}")))
    }
}

/// A rated result as the boards hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RatedResult {
    board: BoardNumber,
    variant: Variant,
    game: RatedGame<PlayerId>,
}

/// The columns [`rated_result`] reads, and which boards count: rated,
/// finished with a score, between two players, each of whom has a
/// confirmed address (a signup never confirmed is no player, and is never
/// rated).
const RESULT_COLUMNS: &str = "number, variant, white_id, black_id, rated, result, finished_at,
     EXISTS (SELECT 1 FROM addresses WHERE player_id = boards.white_id)
     AND EXISTS (SELECT 1 FROM addresses WHERE player_id = boards.black_id)";

/// A board row as a rated result; `None` when the board does not count.
fn rated_result(row: &rusqlite::Row<'_>) -> Result<Option<RatedResult>, StoreError> {
    let board: BoardNumber = row.get(0)?;
    let variant: String = row.get(1)?;
    let white = PlayerId(row.get(2)?);
    let black = PlayerId(row.get(3)?);
    let rated: bool = row.get(4)?;
    let result: Option<String> = row.get(5)?;
    let finished: Option<String> = row.get(6)?;
    let both_confirmed: bool = row.get(7)?;
    let (Some(outcome), Some(finished)) =
        (result.as_deref().and_then(Outcome::of_result), finished)
    else {
        return Ok(None);
    };
    if !rated || white == black || !both_confirmed {
        return Ok(None);
    }
    let variant = variant.parse().map_err(|_| {
        StoreError::Corrupt(format!("board {board} has unknown variant {variant:?}"))
    })?;
    Ok(Some(RatedResult {
        board,
        variant,
        game: RatedGame {
            white,
            black,
            outcome,
            at: nanos(parse_time(&finished)?),
        },
    }))
}

/// A time as Unix nanoseconds, as ratings store times (saturating: pbem's
/// times are far inside).
pub fn nanos(time: OffsetDateTime) -> i64 {
    i64::try_from(time.unix_timestamp_nanos()).unwrap_or(if time.year() < 1970 {
        i64::MIN
    } else {
        i64::MAX
    })
}

/// What rating a finished game changed, for the result mail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameRating {
    pub variant: Variant,
    pub white: PlayerId,
    pub black: PlayerId,
    pub change: Change,
}

/// Rates board `number` if it counts (a rated board finished with a
/// score; see [`rebuild`] for the rule), inside the caller's transaction.
/// Call it once, after the result is stored. A game that ends before
/// another already rated game of one of its players in the variant's
/// replay order (the same time and a lower board number, or a clock set
/// back) has the variant's ratings replayed, so that they stay exactly
/// what a rebuild gives.
pub fn record_game(
    conn: &Connection,
    number: BoardNumber,
) -> Result<Option<GameRating>, StoreError> {
    let sql = format!("SELECT {RESULT_COLUMNS} FROM boards WHERE number = ?1");
    let row = conn
        .query_row_cached(&sql, [number], |row| Ok(rated_result(row)))
        .optional()?
        .transpose()?
        .flatten();
    let Some(result) = row else {
        return Ok(None);
    };
    let RatedResult {
        board,
        variant,
        game,
    } = result;
    let white = standing(conn, game.white, variant)?.unwrap_or_default();
    let black = standing(conn, game.black, variant)?.unwrap_or_default();
    // A game rated already that comes later in the replay order and
    // involves one of the two players would have been rated from other
    // figures: replay the variant. (Later games of other players only are
    // untouched by this one, and do not touch its players' figures.)
    if rated_later(
        conn,
        board,
        variant,
        game.at,
        [(game.white, &white), (game.black, &black)],
    )? {
        rebuild(conn, Some(variant))?;
        let change = conn.query_row_cached(
            "SELECT white_before, white_after, black_before, black_after
             FROM rated_games WHERE board = ?1",
            [board],
            |row| {
                Ok(Change {
                    white_before: row.get(0)?,
                    white_after: row.get(1)?,
                    black_before: row.get(2)?,
                    black_after: row.get(3)?,
                })
            },
        )?;
        return Ok(Some(GameRating {
            variant,
            white: game.white,
            black: game.black,
            change,
        }));
    }
    let (new_white, new_black) = ratings::rate_game(&white, &black, game.outcome, game.at);
    write_standing(conn, game.white, variant.id(), &new_white)?;
    write_standing(conn, game.black, variant.id(), &new_black)?;
    let change = Change {
        white_before: white.rating.rating,
        white_after: new_white.rating.rating,
        black_before: black.rating.rating,
        black_after: new_black.rating.rating,
    };
    write_rated_game(conn, board, variant.id(), &game, &change)?;
    Ok(Some(GameRating {
        variant,
        white: game.white,
        black: game.black,
        change,
    }))
}

/// Whether one of `players` has a game of `variant` rated already that
/// comes after board `board`, ended at `at`, in the replay order (the
/// time a game ended, then its board number). A standing's `last_played`
/// is when the player's latest rated game of the variant ended: a later
/// time settles it either way, and only a game ended at the same instant
/// needs a look at the player's boards numbered higher.
fn rated_later(
    conn: &Connection,
    board: BoardNumber,
    variant: Variant,
    at: i64,
    players: [(PlayerId, &Standing); 2],
) -> Result<bool, StoreError> {
    for (player, standing) in players {
        match standing.last_played {
            Some(last) if last > at => return Ok(true),
            Some(last) if last == at => {
                let tied: bool = conn.query_row_cached(
                    "SELECT EXISTS (SELECT 1 FROM boards b JOIN rated_games g ON g.board = b.number
                                    WHERE (b.white_id = ?1 OR b.black_id = ?1) AND b.number > ?2
                                      AND g.variant = ?3 AND g.finished = ?4)",
                    params![player.0, board, variant.id(), at],
                    |row| row.get(0),
                )?;
                if tied {
                    return Ok(true);
                }
            }
            _ => {}
        }
    }
    Ok(false)
}

fn write_rated_game(
    conn: &Connection,
    board: BoardNumber,
    variant: &str,
    game: &RatedGame<PlayerId>,
    change: &Change,
) -> Result<(), StoreError> {
    let mut statement = conn.prepare_cached(&GAMES_UPSERT[0])?;
    bind_rated_game(&mut statement, 0, board, variant, game, change)?;
    statement.raw_execute()?;
    Ok(())
}

/// The upserts of one rated game and of [`ROWS_PER_STATEMENT`].
static GAMES_UPSERT: LazyLock<[String; 2]> = LazyLock::new(|| {
    [1, ROWS_PER_STATEMENT].map(|rows| {
        upsert(
            "rated_games (board, variant, finished, white_id, black_id, white_before,
                          white_after, black_before, black_after)",
            9,
            rows,
            "board",
            "variant = excluded.variant, finished = excluded.finished,
             white_id = excluded.white_id, black_id = excluded.black_id,
             white_before = excluded.white_before, white_after = excluded.white_after,
             black_before = excluded.black_before, black_after = excluded.black_after",
        )
    })
});

/// Binds one rated game as row `row` (from 0) of an upsert.
fn bind_rated_game(
    statement: &mut rusqlite::Statement<'_>,
    row: usize,
    board: BoardNumber,
    variant: &str,
    game: &RatedGame<PlayerId>,
    change: &Change,
) -> Result<(), StoreError> {
    let first = row * 9 + 1;
    statement.raw_bind_parameter(first, board)?;
    statement.raw_bind_parameter(first + 1, variant)?;
    statement.raw_bind_parameter(first + 2, game.at)?;
    statement.raw_bind_parameter(first + 3, game.white.0)?;
    statement.raw_bind_parameter(first + 4, game.black.0)?;
    statement.raw_bind_parameter(first + 5, finite(change.white_before)?)?;
    statement.raw_bind_parameter(first + 6, finite(change.white_after)?)?;
    statement.raw_bind_parameter(first + 7, finite(change.black_before)?)?;
    statement.raw_bind_parameter(first + 8, finite(change.black_after)?)?;
    Ok(())
}

/// Writes rated games, [`ROWS_PER_STATEMENT`] to a statement.
fn write_rated_games(
    conn: &Connection,
    rows: &[(&RatedResult, &Change)],
) -> Result<(), StoreError> {
    let mut chunks = rows.chunks_exact(ROWS_PER_STATEMENT);
    for chunk in &mut chunks {
        let mut statement = conn.prepare_cached(&GAMES_UPSERT[1])?;
        for (row, (result, change)) in chunk.iter().enumerate() {
            bind_rated_game(
                &mut statement,
                row,
                result.board,
                result.variant.id(),
                &result.game,
                change,
            )?;
        }
        statement.raw_execute()?;
    }
    for (result, change) in chunks.remainder() {
        write_rated_game(
            conn,
            result.board,
            result.variant.id(),
            &result.game,
            change,
        )?;
    }
    Ok(())
}

/// What a rebuild found and did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rebuilt {
    /// Rated games replayed.
    pub games: usize,
    /// Ratings (player and variant) the replay gives.
    pub ratings: usize,
    /// Stored ratings that differed from the replay (or were missing) and
    /// were written.
    pub ratings_changed: usize,
    /// Stored ratings the replay does not give, removed.
    pub ratings_removed: usize,
    /// Rows of rated games written (differing or missing) and removed.
    pub games_changed: usize,
    pub games_removed: usize,
}

impl Rebuilt {
    /// Whether the stored figures were already exactly the replay's.
    pub fn unchanged(&self) -> bool {
        self.ratings_changed + self.ratings_removed + self.games_changed + self.games_removed == 0
    }
}

/// Replays every rated result (of `only` one variant, or of all) in
/// order from the start ratings, and makes the stored ratings and rated
/// games exactly the replay's, writing only what differs. The boards that
/// count: `rated`, finished `1-0`, `0-1` or `1/2-1/2` (a declined game has
/// no score), between two different players.
pub fn rebuild(conn: &Connection, only: Option<Variant>) -> Result<Rebuilt, StoreError> {
    // A rebuild that rewrites everything dirties far more pages than
    // SQLite's default page cache (2 MB) holds; pages of the ratings'
    // index by rating, taken in no useful order, would spill and be read
    // back again and again. A larger cache for the rebuild, then the
    // usual one.
    let cache: i64 = conn.pragma_query_value(None, "cache_size", |row| row.get(0))?;
    conn.pragma_update(None, "cache_size", REBUILD_CACHE_KIB)?;
    let rebuilt = replay_and_store(conn, only);
    conn.pragma_update(None, "cache_size", cache)?;
    rebuilt
}

/// SQLite's page cache during a rebuild, in KiB (as `cache_size` takes
/// it, negative).
const REBUILD_CACHE_KIB: i64 = -256 * 1024;

fn replay_and_store(conn: &Connection, only: Option<Variant>) -> Result<Rebuilt, StoreError> {
    let mut results: Vec<RatedResult> = Vec::new();
    {
        let sql = format!(
            "SELECT {RESULT_COLUMNS} FROM boards
             WHERE rated AND result IN ('1-0', '0-1', '1/2-1/2') AND (?1 IS NULL OR variant = ?1)"
        );
        let mut statement = conn.prepare(&sql)?;
        let mut rows = statement.query([only.map(Variant::id)])?;
        while let Some(row) = rows.next()? {
            if let Some(result) = rated_result(row)? {
                results.push(result);
            }
        }
    }
    results.sort_unstable_by_key(|r| (r.game.at, r.board));
    let games: Vec<RatedGame<(PlayerId, Variant)>> = results
        .iter()
        .map(|r| RatedGame {
            white: (r.game.white, r.variant),
            black: (r.game.black, r.variant),
            outcome: r.game.outcome,
            at: r.game.at,
        })
        .collect();
    let (standings, changes) = ratings::replay(&games);
    let mut rebuilt = Rebuilt {
        games: games.len(),
        ratings: standings.len(),
        ..Rebuilt::default()
    };

    // Ratings: compare with what is stored, write what differs.
    let mut stored: HashMap<(PlayerId, Variant), Standing> = HashMap::new();
    {
        let mut statement = conn.prepare(
            "SELECT player_id, variant, rating, deviation, volatility, games, wins, losses,
                    draws, last_played
             FROM ratings WHERE ?1 IS NULL OR variant = ?1",
        )?;
        let mut rows = statement.query([only.map(Variant::id)])?;
        while let Some(row) = rows.next()? {
            let player = PlayerId(row.get(0)?);
            let variant: String = row.get(1)?;
            let Ok(variant) = variant.parse::<Variant>() else {
                conn.execute(
                    "DELETE FROM ratings WHERE player_id = ?1 AND variant = ?2",
                    params![player.0, variant],
                )?;
                rebuilt.ratings_removed += 1;
                continue;
            };
            let standing = Standing {
                rating: PlayerRating {
                    rating: row.get(2)?,
                    deviation: row.get(3)?,
                    volatility: row.get(4)?,
                    games: row.get(5)?,
                    wins: row.get(6)?,
                    losses: row.get(7)?,
                    draws: row.get(8)?,
                },
                last_played: Some(row.get(9)?),
            };
            stored.insert((player, variant), standing);
        }
    }
    let mut differing: Vec<(PlayerId, Variant, &Standing)> = standings
        .iter()
        .filter(|&(key, standing)| {
            !stored
                .remove(key)
                .is_some_and(|old| same_standing(&old, standing))
        })
        .map(|(&(player, variant), standing)| (player, variant, standing))
        .collect();
    // In key order, so that rows are appended (see the rated games below).
    differing.sort_unstable_by_key(|&(player, variant, _)| (player.0, variant.id()));
    write_standings(conn, &differing)?;
    rebuilt.ratings_changed = differing.len();
    for (player, variant) in stored.into_keys() {
        conn.execute_cached(
            "DELETE FROM ratings WHERE player_id = ?1 AND variant = ?2",
            params![player.0, variant.id()],
        )?;
        rebuilt.ratings_removed += 1;
    }

    // Rated games, the same way.
    let mut stored: HashMap<BoardNumber, (i64, i64, i64, [u64; 4])> = HashMap::new();
    {
        let mut statement = conn.prepare(
            "SELECT board, finished, white_id, black_id, white_before, white_after,
                    black_before, black_after
             FROM rated_games WHERE ?1 IS NULL OR variant = ?1",
        )?;
        let mut rows = statement.query([only.map(Variant::id)])?;
        while let Some(row) = rows.next()? {
            let figures: [f64; 4] = [row.get(4)?, row.get(5)?, row.get(6)?, row.get(7)?];
            stored.insert(
                row.get(0)?,
                (
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    figures.map(f64::to_bits),
                ),
            );
        }
    }
    let mut differing = Vec::new();
    for (index, (result, change)) in results.iter().zip(&changes).enumerate() {
        let wanted = (
            result.game.at,
            result.game.white.0,
            result.game.black.0,
            [
                change.white_before,
                change.white_after,
                change.black_before,
                change.black_after,
            ]
            .map(f64::to_bits),
        );
        if stored.remove(&result.board) != Some(wanted) {
            differing.push(index);
        }
    }
    // In board order, the rows of a rebuild from nothing are appended
    // to the table (keyed by board) rather than put in at random places.
    differing.sort_unstable_by_key(|&index| results[index].board);
    let rows: Vec<(&RatedResult, &Change)> = differing
        .iter()
        .map(|&index| (&results[index], &changes[index]))
        .collect();
    write_rated_games(conn, &rows)?;
    rebuilt.games_changed = rows.len();
    for board in stored.into_keys() {
        conn.execute_cached("DELETE FROM rated_games WHERE board = ?1", [board])?;
        rebuilt.games_removed += 1;
    }
    Ok(rebuilt)
}

/// Bit for bit the same.
fn same_standing(a: &Standing, b: &Standing) -> bool {
    let (x, y) = (&a.rating, &b.rating);
    x.rating.to_bits() == y.rating.to_bits()
        && x.deviation.to_bits() == y.deviation.to_bits()
        && x.volatility.to_bits() == y.volatility.to_bits()
        && (x.games, x.wins, x.losses, x.draws) == (y.games, y.wins, y.losses, y.draws)
        && a.last_played == b.last_played
}

/// One line of a variant's standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub player: PlayerId,
    pub userid: String,
    pub standing: Standing,
    /// Public games of the variant in progress (no `--private` game, no
    /// challenge nobody accepted: the standings are anyone's to read).
    pub active: u32,
}

/// Every rating of `variant`, highest first (ties by userid).
pub fn of_variant(conn: &Connection, variant: Variant) -> Result<Vec<Entry>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses, r.draws,
                r.last_played, r.player_id, p.userid,
                (SELECT COUNT(*) FROM boards b
                  WHERE b.result IS NULL AND b.variant = r.variant
                    AND b.challenged_id IS NULL AND b.private = 0
                    AND (b.white_id = r.player_id OR b.black_id = r.player_id))
         FROM ratings r JOIN players p ON p.id = r.player_id
         WHERE r.variant = ?1
         ORDER BY r.rating DESC, p.userid",
    )?;
    let rows = statement.query_map([variant.id()], |row| {
        Ok(Entry {
            standing: standing_from_row(row)?,
            player: PlayerId(row.get(8)?),
            userid: row.get(9)?,
            active: row.get(10)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The variants that have ratings, in the order of [`Variant::ALL`].
pub fn variants(conn: &Connection) -> Result<Vec<Variant>, StoreError> {
    let mut statement = conn.prepare_cached("SELECT DISTINCT variant FROM ratings")?;
    let names = statement
        .query_map([], |row| row.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Variant::ALL
        .into_iter()
        .filter(|v| names.iter().any(|n| n == v.id()))
        .collect())
}

/// White's and Black's ratings before board `board`, if it was rated.
pub fn before(conn: &Connection, board: BoardNumber) -> Result<Option<(f64, f64)>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT white_before, black_before FROM rated_games WHERE board = ?1",
            [board],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?)
}

/// A player's ratings in every variant played, in the order of
/// [`Variant::ALL`].
pub fn of_player(
    conn: &Connection,
    player: PlayerId,
) -> Result<Vec<(Variant, Standing)>, StoreError> {
    let mut out = Vec::new();
    for variant in Variant::ALL {
        if let Some(standing) = standing(conn, player, variant)? {
            out.push((variant, standing));
        }
    }
    Ok(out)
}

/// One rated game from one player's side.
#[derive(Clone, Debug, PartialEq)]
pub struct PastGame {
    pub board: BoardNumber,
    pub variant: Variant,
    /// Unix nanoseconds.
    pub finished: i64,
    pub opponent: String,
    /// The opponent's rating before the game.
    pub opponent_before: f64,
    pub outcome: Outcome,
    pub before: f64,
    pub after: f64,
}

/// A player's last `limit` rated games that `viewer` may list (a player,
/// or `None` for the web and strangers: see [`super::web::LISTED`]),
/// newest first.
pub fn recent_games(
    conn: &Connection,
    player: PlayerId,
    viewer: Option<PlayerId>,
    limit: u32,
) -> Result<Vec<PastGame>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT g.board, g.variant, g.finished, g.white_id, w.userid, k.userid, b.result,
                g.white_before, g.white_after, g.black_before, g.black_after
         FROM boards b
         JOIN rated_games g ON g.board = b.number
         JOIN players w ON w.id = g.white_id
         JOIN players k ON k.id = g.black_id
         WHERE (b.white_id = ?1 OR b.black_id = ?1) AND {}
         ORDER BY g.finished DESC, g.board DESC
         LIMIT ?2",
        super::web::listed_as(3)
    ))?;
    let mut rows = statement.query(params![player.0, limit, viewer.map(|v| v.0)])?;
    let mut games = Vec::new();
    while let Some(row) = rows.next()? {
        let board: BoardNumber = row.get(0)?;
        let variant: String = row.get(1)?;
        let variant = variant.parse().map_err(|_| {
            StoreError::Corrupt(format!(
                "rated game {board} has unknown variant {variant:?}"
            ))
        })?;
        let result: String = row.get(6)?;
        let outcome = Outcome::of_result(&result).ok_or_else(|| {
            StoreError::Corrupt(format!("rated game {board} has the result {result:?}"))
        })?;
        let is_white = PlayerId(row.get(3)?) == player;
        let (white_before, white_after, black_before, black_after): (f64, f64, f64, f64) =
            (row.get(7)?, row.get(8)?, row.get(9)?, row.get(10)?);
        games.push(if is_white {
            PastGame {
                board,
                variant,
                finished: row.get(2)?,
                opponent: row.get(5)?,
                opponent_before: black_before,
                outcome,
                before: white_before,
                after: white_after,
            }
        } else {
            PastGame {
                board,
                variant,
                finished: row.get(2)?,
                opponent: row.get(4)?,
                opponent_before: white_before,
                outcome: match outcome {
                    Outcome::Win => Outcome::Loss,
                    Outcome::Loss => Outcome::Win,
                    Outcome::Draw => Outcome::Draw,
                },
                before: black_before,
                after: black_after,
            }
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::boards::{self, BoardOptions};
    use crate::store::players;
    use time::macros::datetime;

    fn options(rated: bool) -> BoardOptions {
        BoardOptions {
            rated,
            days_per_turn: None,
            nag_days: 7,
            forfeit_days: 21,
            start_position: None,
            opening: None,
        }
    }

    #[test]
    fn games_rate_as_they_end_and_a_rebuild_finds_nothing_to_change() {
        let store = Store::open_in_memory().expect("store");
        let tx = store.transaction().expect("tx");
        let t0 = datetime!(2026-03-01 12:00:00.123456789 UTC);
        let ids: Vec<PlayerId> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|u| {
                players::insert(&tx, u, "x", &[format!("{u}@example.org")], t0).expect("player")
            })
            .collect();
        let board = |w: usize, b: usize, rated: bool| {
            boards::insert(&tx, Variant::Chess2, ids[w], ids[b], options(rated), t0).expect("board")
        };
        let end = |number: u32, result: &str, at: OffsetDateTime| {
            boards::set_result(&tx, BoardNumber(number), result, "test", at).expect("result");
            record_game(&tx, BoardNumber(number)).expect("rated")
        };
        let first = end((board(0, 1, true)).0, "1-0", t0).expect("a rated game");
        assert!(first.change.white_after > 1500.0 && first.change.black_after < 1500.0);
        let hour = t0 + time::Duration::hours(1);
        assert!(
            end((board(1, 2, false)).0, "0-1", hour).is_none(),
            "unrated"
        );
        assert!(end((board(1, 2, true)).0, "-", hour).is_none(), "declined");
        end(
            (board(1, 2, true)).0,
            "1/2-1/2",
            t0 + time::Duration::days(40),
        );
        // Two games ending at one time: the later board number is rated
        // first here, and the earlier one then replays the variant.
        let same = t0 + time::Duration::days(41);
        let (early, late) = (board(2, 0, true), board(0, 1, true));
        end(late.0, "0-1", same);
        let change = end(early.0, "1-0", same).expect("rated").change;
        // Out of order, but no player in common: rated as it comes.
        let (early, late) = (board(3, 4, true), board(0, 1, true));
        end(late.0, "1-0", same + time::Duration::hours(1));
        end(early.0, "0-1", same);
        // c's rating before board `early` is the one after the draw.
        let after_draw: f64 = tx
            .query_row(
                "SELECT black_after FROM rated_games WHERE board = 104",
                [],
                |r| r.get(0),
            )
            .expect("the draw's row");
        assert_eq!(change.white_before, after_draw);
        let before: Vec<_> = [0, 1, 2, 3, 4]
            .iter()
            .map(|&i| current(&tx, ids[i], Variant::Chess2).expect("read"))
            .collect();
        let rebuilt = rebuild(&tx, None).expect("rebuild");
        assert_eq!(rebuilt.games, 6);
        assert_eq!(rebuilt.ratings, 5);
        assert!(rebuilt.unchanged(), "{rebuilt:?}");
        let after: Vec<_> = [0, 1, 2, 3, 4]
            .iter()
            .map(|&i| current(&tx, ids[i], Variant::Chess2).expect("read"))
            .collect();
        assert_eq!(before, after);
        assert_eq!(current(&tx, ids[0], Variant::Chess).expect("read"), None);
        let a = current(&tx, ids[0], Variant::Chess2)
            .expect("read")
            .expect("rated");
        assert_eq!((a.games, a.wins, a.losses, a.draws), (4, 2, 2, 0));

        // Wiped figures come back exactly.
        tx.execute_batch(
            "UPDATE ratings SET rating = rating + 1; DELETE FROM rated_games WHERE board = 101",
        )
        .expect("tamper");
        let rebuilt = rebuild(&tx, None).expect("rebuild");
        assert_eq!((rebuilt.ratings_changed, rebuilt.games_changed), (5, 1));
        assert!(rebuild(&tx, None).expect("again").unchanged());
        let again: Vec<_> = [0, 1, 2, 3, 4]
            .iter()
            .map(|&i| current(&tx, ids[i], Variant::Chess2).expect("read"))
            .collect();
        assert_eq!(before, again);
        let recent = recent_games(&tx, ids[0], None, 10).expect("recent");
        assert_eq!(recent.len(), 4);
        assert_eq!(recent[0].outcome, Outcome::Win);
        assert_eq!(recent[1].outcome, Outcome::Loss);
        assert_eq!(recent.last().expect("first").outcome, Outcome::Win);
        assert_eq!(recent.last().expect("first").before, 1500.0);
    }

    #[test]
    fn a_player_whose_address_never_confirmed_is_never_rated() {
        let store = Store::open_in_memory().expect("store");
        let tx = store.transaction().expect("tx");
        let t0 = datetime!(2026-03-01 12:00 UTC);
        let alice =
            players::insert(&tx, "alice", "x", &["alice@example.org".into()], t0).expect("alice");
        let ghost = players::insert(&tx, "ghost", "x", &[], t0).expect("ghost");
        let board =
            boards::insert(&tx, Variant::Chess, alice, ghost, options(true), t0).expect("board");
        boards::set_result(&tx, board, "1-0", "test", t0).expect("result");
        assert_eq!(record_game(&tx, board).expect("read"), None);
        let rebuilt = rebuild(&tx, None).expect("rebuild");
        assert_eq!((rebuilt.games, rebuilt.ratings), (0, 0));
        assert_eq!(current(&tx, alice, Variant::Chess).expect("read"), None);
        assert!(
            of_variant(&tx, Variant::Chess)
                .expect("standings")
                .is_empty()
        );
    }
}
