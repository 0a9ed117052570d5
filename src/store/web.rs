//! What the spectators' web site reads (`crate::web`): short read-only
//! queries, each one statement, that leave out everything private. A board
//! is public once it is a game (a challenge nobody accepted never is)
//! unless its challenge was `--private`; a player once an address of
//! theirs confirmed (a reserved userid never is). No query here reads an
//! address, a password hash, a comment, an invitation or a queued turn.
//!
//! The two settings the site honours are written here too, by the service
//! ([`set_private`], [`set_public_delay`]): what the site may show is
//! decided in one file.

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time};
use crate::rules::Variant;

/// Whether board `number` exists and is public: not a challenge that its
/// challenged player never accepted (waiting, declined or lapsed).
pub fn is_public_board(conn: &Connection, number: u32) -> Result<bool, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM boards WHERE number = ?1 AND challenged_id IS NULL AND private = 0",
            [number],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// Marks board `number` private (`challenge --private`): no page or feed
/// shows it.
pub fn set_private(conn: &Connection, number: u32) -> Result<(), StoreError> {
    conn.execute_cached("UPDATE boards SET private = 1 WHERE number = ?1", [number])?;
    Ok(())
}

/// Whether board `number` is a `--private` game.
pub fn is_private(conn: &Connection, number: u32) -> Result<bool, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT private FROM boards WHERE number = ?1",
            [number],
            |row| row.get(0),
        )
        .optional()?
        .unwrap_or(false))
}

/// Sets how many turns behind the web site shows event `event`'s running
/// games (`tournament create --public-delay=N`).
pub fn set_public_delay(conn: &Connection, event: i64, turns: u32) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE tournaments SET public_delay = ?2 WHERE id = ?1",
        params![event, turns],
    )?;
    Ok(())
}

/// How many turns behind the web site shows event `event`'s running games.
pub fn public_delay(conn: &Connection, event: i64) -> Result<u32, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT public_delay FROM tournaments WHERE id = ?1",
            [event],
            |row| row.get(0),
        )
        .optional()?
        .unwrap_or(0))
}

/// How many turns behind the web site shows board `number` while it runs:
/// its event's `--public-delay`, 0 for a game of no event or one that
/// ended (a finished game is shown in full).
pub fn board_delay(conn: &Connection, number: u32) -> Result<u32, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT t.public_delay FROM tournament_games g
             JOIN tournaments t ON t.id = g.tournament_id
             JOIN boards b ON b.number = g.board
             WHERE g.board = ?1 AND b.result IS NULL",
            [number],
            |row| row.get(0),
        )
        .optional()?
        .unwrap_or(0))
}

/// The userid of player `id`.
pub fn userid(conn: &Connection, id: PlayerId) -> Result<String, StoreError> {
    Ok(
        conn.query_row_cached("SELECT userid FROM players WHERE id = ?1", [id.0], |row| {
            row.get(0)
        })?,
    )
}

/// The player whose userid is `userid` (in any case), if an address of
/// theirs confirmed: their id and the userid as registered.
pub fn confirmed_player(
    conn: &Connection,
    userid: &str,
) -> Result<Option<(PlayerId, String)>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT p.id, p.userid FROM players p
             WHERE p.userid = ?1 AND EXISTS (SELECT 1 FROM addresses a WHERE a.player_id = p.id)",
            [userid],
            |row| Ok((PlayerId(row.get(0)?), row.get(1)?)),
        )
        .optional()?)
}

/// One public board as a line of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLine {
    pub number: u32,
    pub variant: Variant,
    pub white: String,
    pub black: String,
    /// `None` while the game is on.
    pub result: Option<String>,
    pub last_turn_at: OffsetDateTime,
    /// When the game ended.
    pub finished_at: Option<OffsetDateTime>,
    /// Running, and shown turns behind (its event's `--public-delay`):
    /// when its last turn was played is not shown either.
    pub delayed: bool,
}

const LINE_SELECT: &str = "SELECT b.number, b.variant, w.userid, k.userid, b.result,
        b.last_turn_at, b.finished_at,
        b.result IS NULL AND EXISTS (SELECT 1 FROM tournament_games g
            JOIN tournaments t ON t.id = g.tournament_id
            WHERE g.board = b.number AND t.public_delay > 0)
     FROM boards b JOIN players w ON w.id = b.white_id JOIN players k ON k.id = b.black_id
     WHERE b.challenged_id IS NULL AND b.private = 0";

fn board_lines(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<BoardLine>, StoreError> {
    let mut statement = conn.prepare_cached(sql)?;
    let rows = statement.query_map(params, |row| {
        Ok((
            row.get::<_, u32>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
            row.get::<_, String>(3)?,
            row.get::<_, Option<String>>(4)?,
            row.get::<_, String>(5)?,
            row.get::<_, Option<String>>(6)?,
            row.get::<_, bool>(7)?,
        ))
    })?;
    rows.map(|row| {
        let (number, variant, white, black, result, last, finished, delayed) = row?;
        Ok(BoardLine {
            number,
            variant: variant.parse().map_err(|_| {
                StoreError::Corrupt(format!("board {number} has unknown variant {variant:?}"))
            })?,
            white,
            black,
            result,
            last_turn_at: parse_time(&last)?,
            finished_at: finished.as_deref().map(parse_time).transpose()?,
            delayed,
        })
    })
    .collect()
}

/// The public games being played, the latest turn first, at most `limit`.
pub fn running_boards(conn: &Connection, limit: u32) -> Result<Vec<BoardLine>, StoreError> {
    board_lines(
        conn,
        &format!(
            "{LINE_SELECT} AND b.result IS NULL ORDER BY b.last_turn_at DESC, b.number DESC LIMIT ?1"
        ),
        [limit],
    )
}

/// The public games that ended, the latest first, at most `limit`.
pub fn finished_boards(conn: &Connection, limit: u32) -> Result<Vec<BoardLine>, StoreError> {
    board_lines(
        conn,
        &format!(
            "{LINE_SELECT} AND b.result IS NOT NULL ORDER BY b.finished_at DESC, b.number DESC LIMIT ?1"
        ),
        [limit],
    )
}

/// The public games of `player`, the newest first, at most `limit`.
pub fn boards_of(
    conn: &Connection,
    player: PlayerId,
    limit: u32,
) -> Result<Vec<BoardLine>, StoreError> {
    board_lines(
        conn,
        &format!(
            "{LINE_SELECT} AND (b.white_id = ?1 OR b.black_id = ?1) ORDER BY b.number DESC LIMIT ?2"
        ),
        params![player.0, limit],
    )
}

/// The events `player` entered: name and status, the newest first.
pub fn events_of(conn: &Connection, player: PlayerId) -> Result<Vec<(String, String)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT t.name, t.status FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id
         WHERE e.player_id = ?1 ORDER BY t.created_at DESC, t.id DESC",
    )?;
    let rows = statement.query_map([player.0], |row| Ok((row.get(0)?, row.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// When board `number` ended, if it did.
pub fn finished_at(conn: &Connection, number: u32) -> Result<Option<OffsetDateTime>, StoreError> {
    let finished: Option<String> = conn
        .query_row_cached(
            "SELECT finished_at FROM boards WHERE number = ?1",
            [number],
            |row| row.get(0),
        )
        .optional()?
        .flatten();
    finished.as_deref().map(parse_time).transpose()
}

/// When each game of an event ended, by board: (board, finished_at).
pub fn event_game_ends(
    conn: &Connection,
    event: i64,
) -> Result<Vec<(u32, OffsetDateTime)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT b.number, b.finished_at FROM tournament_games g JOIN boards b ON b.number = g.board
         WHERE g.tournament_id = ?1 AND b.finished_at IS NOT NULL ORDER BY b.finished_at, b.number",
    )?;
    let rows = statement.query_map([event], |row| {
        Ok((row.get::<_, u32>(0)?, row.get::<_, String>(1)?))
    })?;
    rows.map(|row| {
        let (board, finished) = row?;
        Ok((board, parse_time(&finished)?))
    })
    .collect()
}

/// The counts `/metrics` shows, each one cheap to read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Mails in the outbox not sent yet.
    pub outbox_unsent: i64,
    /// Sent mails still kept in the outbox (pruned after 7 days).
    pub outbox_sent_kept: i64,
    /// Inbound mails recorded as processed (pruned after 30 days).
    pub processed_kept: i64,
    pub boards_running: i64,
    pub boards_finished: i64,
    /// Players with a confirmed address.
    pub players: i64,
    pub events_open: i64,
    pub events_running: i64,
    pub events_finished: i64,
}

/// The counts of `/metrics`, in one statement.
pub fn counts(conn: &Connection) -> Result<Counts, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT
            (SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL),
            (SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL),
            (SELECT COUNT(*) FROM processed),
            (SELECT COUNT(*) FROM boards WHERE result IS NULL AND challenged_id IS NULL),
            (SELECT COUNT(*) FROM boards WHERE result IS NOT NULL AND challenged_id IS NULL),
            (SELECT COUNT(DISTINCT player_id) FROM addresses),
            (SELECT COUNT(*) FROM tournaments WHERE status = 'open'),
            (SELECT COUNT(*) FROM tournaments WHERE status = 'running'),
            (SELECT COUNT(*) FROM tournaments WHERE status = 'finished')",
        [],
        |row| {
            Ok(Counts {
                outbox_unsent: row.get(0)?,
                outbox_sent_kept: row.get(1)?,
                processed_kept: row.get(2)?,
                boards_running: row.get(3)?,
                boards_finished: row.get(4)?,
                players: row.get(5)?,
                events_open: row.get(6)?,
                events_running: row.get(7)?,
                events_finished: row.get(8)?,
            })
        },
    )?)
}

/// Whether the database answers a query.
pub fn answers(conn: &Connection) -> Result<(), StoreError> {
    conn.query_row_cached("SELECT COUNT(*) FROM settings", [], |_| Ok(()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::boards::{self, BoardOptions};
    use crate::store::{Store, players};

    fn options() -> BoardOptions {
        BoardOptions {
            rated: true,
            days_per_turn: None,
            nag_days: 7,
            forfeit_days: 14,
        }
    }

    #[test]
    fn unaccepted_challenges_and_reserved_userids_are_not_public() {
        let store = Store::open_in_memory().expect("store");
        let conn = store.conn();
        let now = OffsetDateTime::UNIX_EPOCH;
        let alice =
            players::insert(conn, "alice", "h", &["a@example.org".into()], now).expect("alice");
        let bob = players::insert(conn, "bob", "h", &["b@example.org".into()], now).expect("bob");
        players::insert(conn, "carol", "h", &[], now).expect("carol, reserved");
        let game = boards::insert(conn, Variant::Chess, alice, bob, options(), now).expect("game");
        let challenge =
            boards::insert(conn, Variant::Chess, alice, bob, options(), now).expect("challenge");
        boards::set_challenge(conn, challenge, bob, "<c@x>").expect("waits");

        assert!(is_public_board(conn, game.0).expect("query"));
        assert!(!is_public_board(conn, challenge.0).expect("query"));
        assert!(!is_public_board(conn, 99).expect("query"));
        let running = running_boards(conn, 10).expect("running");
        assert_eq!(
            running.iter().map(|b| b.number).collect::<Vec<_>>(),
            [game.0]
        );
        assert_eq!(boards_of(conn, bob, 10).expect("bob's").len(), 1);
        assert_eq!(
            confirmed_player(conn, "ALICE").expect("query"),
            Some((alice, "alice".to_string()))
        );
        assert_eq!(confirmed_player(conn, "carol").expect("query"), None);
        let counts = counts(conn).expect("counts");
        assert_eq!((counts.boards_running, counts.players), (1, 2));
        answers(conn).expect("the store answers");
    }

    #[test]
    fn private_games_are_not_public_and_delays_are_the_events() {
        let store = Store::open_in_memory().expect("store");
        let conn = store.conn();
        let now = OffsetDateTime::UNIX_EPOCH;
        let alice =
            players::insert(conn, "alice", "h", &["a@example.org".into()], now).expect("alice");
        let bob = players::insert(conn, "bob", "h", &["b@example.org".into()], now).expect("bob");
        let game = boards::insert(conn, Variant::Chess, alice, bob, options(), now).expect("game");
        set_private(conn, game.0).expect("private");
        assert!(!is_public_board(conn, game.0).expect("query"));
        assert!(running_boards(conn, 10).expect("running").is_empty());
        assert!(boards_of(conn, alice, 10).expect("alice's").is_empty());
        // A game of no event is shown as it stands; an unknown event has no delay.
        assert_eq!(board_delay(conn, game.0).expect("delay"), 0);
        assert_eq!(public_delay(conn, 99).expect("delay"), 0);
    }
}
