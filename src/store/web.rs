//! The query half of [`crate::reader`], the one reader policy: short
//! read-only queries, each one statement, that answer what the policy
//! asks of the store. Which boards a reader may list is written here in
//! SQL ([`LISTED`]): a board once it is a game (a challenge nobody
//! accepted never is) unless its challenge was `--private`, and every
//! board of the reader's own; a player once an address of theirs
//! confirmed (a reserved userid never is). No query here reads an
//! address (but to ask whether one follows a board), a password hash, a
//! comment, an invitation or a queued turn.
//!
//! The two settings the policy honours are written here too, by the
//! service ([`set_private`], [`set_public_delay`]).

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time};
use crate::domain::BoardNumber;
use crate::rules::Variant;

/// The SQL condition on a board `b` that lets the viewer `?v` (a player
/// id, or NULL for the web and strangers) list it: public, or theirs.
/// Every listing query of the store that names boards uses it.
pub const LISTED: &str = "((b.challenged_id IS NULL AND b.private = 0)
     OR b.white_id IS ?v OR b.black_id IS ?v)";

/// [`LISTED`] with its viewer as the numbered parameter `index`.
pub fn listed_as(index: u32) -> String {
    LISTED.replace("?v", &format!("?{index}"))
}

/// What the policy needs to know of one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardFacts {
    pub white: PlayerId,
    pub black: PlayerId,
    /// A game anyone may see: accepted, and not `--private`.
    pub public: bool,
    /// Its event's `--public-delay` while it runs; 0 for a game of no
    /// event or one that ended.
    pub delay: u32,
    /// The director of its event, when they are not entered in it.
    pub outside_director: Option<PlayerId>,
}

/// The facts of board `number`, if it exists.
pub fn board_facts(conn: &Connection, number: u32) -> Result<Option<BoardFacts>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT b.white_id, b.black_id, b.challenged_id IS NULL AND b.private = 0,
                    CASE WHEN b.result IS NULL THEN COALESCE(t.public_delay, 0) ELSE 0 END,
                    CASE WHEN NOT EXISTS (SELECT 1 FROM tournament_entries e
                        WHERE e.tournament_id = t.id AND e.player_id = t.director_id)
                        THEN t.director_id END
             FROM boards b
             LEFT JOIN tournament_games g ON g.board = b.number
             LEFT JOIN tournaments t ON t.id = g.tournament_id
             WHERE b.number = ?1",
            [number],
            |row| {
                Ok(BoardFacts {
                    white: PlayerId(row.get(0)?),
                    black: PlayerId(row.get(1)?),
                    public: row.get(2)?,
                    delay: row.get(3)?,
                    outside_director: row.get::<_, Option<i64>>(4)?.map(PlayerId),
                })
            },
        )
        .optional()?)
}

/// Whether `address` follows board `number`.
pub fn follows(conn: &Connection, number: u32, address: &str) -> Result<bool, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM observers WHERE board = ?1 AND address = ?2",
            params![number, address],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// The boards of `player` that `viewer` may list (see [`LISTED`]), the
/// newest first.
pub fn listed_boards_of(
    conn: &Connection,
    player: PlayerId,
    viewer: Option<PlayerId>,
) -> Result<Vec<BoardNumber>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT b.number FROM boards b WHERE (b.white_id = ?1 OR b.black_id = ?1) AND {}
         ORDER BY b.number DESC",
        listed_as(2)
    ))?;
    let rows = statement.query_map(params![player.0, viewer.map(|v| v.0)], |row| {
        Ok(BoardNumber(row.get(0)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Marks board `number` private (`challenge --private`): no page or feed
/// shows it.
pub fn set_private(conn: &Connection, number: u32) -> Result<(), StoreError> {
    conn.execute_cached("UPDATE boards SET private = 1 WHERE number = ?1", [number])?;
    Ok(())
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

/// One listed board as a line of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLine {
    pub number: u32,
    pub variant: Variant,
    pub white: String,
    pub black: String,
    /// `None` while the game is on.
    pub result: Option<String>,
    /// When its last turn the list shows was played (a delayed game's
    /// last shown turn; its start when it shows none).
    pub last_turn_at: OffsetDateTime,
    /// When the game ended.
    pub finished_at: Option<OffsetDateTime>,
    /// Running, and shown turns behind (its event's `--public-delay`):
    /// when its last turn was played is not shown either.
    pub delayed: bool,
    /// Whose move it is in the position shown (its userid), while the
    /// game is on: turns alternate, White's first, so it is White's after
    /// an even number of turns shown.
    pub to_move: Option<String>,
}

/// A running board's `--public-delay` (0 for none, or once it ended).
const DELAY_OF_B: &str = "(CASE WHEN b.result IS NULL THEN COALESCE((SELECT t.public_delay
        FROM tournament_games g JOIN tournaments t ON t.id = g.tournament_id
        WHERE g.board = b.number), 0) ELSE 0 END)";

/// The lines of the boards the web lists (the viewer NULL), the time of
/// the last turn shown as `shown_at`.
fn line_select() -> String {
    format!(
        "SELECT number, variant, white, black, result, shown_at, finished_at, delay > 0,
            (shown_turns % 2) = 0 FROM (
         SELECT b.number, b.variant, w.userid AS white, k.userid AS black, b.result,
            b.finished_at, b.white_id, b.black_id, {DELAY_OF_B} AS delay,
            CASE WHEN {DELAY_OF_B} = 0 THEN b.last_turn_at
                 ELSE COALESCE((SELECT u.played_at FROM turns u WHERE u.board = b.number
                     AND u.seq = (SELECT MAX(v.seq) FROM turns v WHERE v.board = b.number)
                         - {DELAY_OF_B}), b.created_at)
            END AS shown_at,
            (SELECT COUNT(*) FROM turns u WHERE u.board = b.number) - {DELAY_OF_B} AS shown_turns
         FROM boards b JOIN players w ON w.id = b.white_id JOIN players k ON k.id = b.black_id
         WHERE {})",
        LISTED.replace("?v", "NULL")
    )
}

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
            row.get::<_, bool>(8)?,
        ))
    })?;
    rows.map(|row| {
        let (number, variant, white, black, result, last, finished, delayed, whites_move) = row?;
        let to_move = match (&result, whites_move) {
            (Some(_), _) => None,
            (None, true) => Some(white.clone()),
            (None, false) => Some(black.clone()),
        };
        Ok(BoardLine {
            to_move,
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

/// The public games being played, the latest turn shown first, at most
/// `limit` after the first `skip`: a delayed game is ordered by the last
/// turn it shows.
pub fn running_boards(
    conn: &Connection,
    limit: u32,
    skip: u32,
) -> Result<Vec<BoardLine>, StoreError> {
    board_lines(
        conn,
        &format!(
            "{} WHERE result IS NULL ORDER BY shown_at DESC, number DESC LIMIT ?1 OFFSET ?2",
            line_select()
        ),
        [limit, skip],
    )
}

/// The public games that ended, the latest first, at most `limit` after
/// the first `skip`.
pub fn finished_boards(
    conn: &Connection,
    limit: u32,
    skip: u32,
) -> Result<Vec<BoardLine>, StoreError> {
    board_lines(
        conn,
        &format!(
            "{} WHERE result IS NOT NULL ORDER BY finished_at DESC, number DESC LIMIT ?1 OFFSET ?2",
            line_select()
        ),
        [limit, skip],
    )
}

/// The public games of `player`, the newest first, at most `limit` after
/// the first `skip`.
pub fn boards_of(
    conn: &Connection,
    player: PlayerId,
    limit: u32,
    skip: u32,
) -> Result<Vec<BoardLine>, StoreError> {
    board_lines(
        conn,
        &format!(
            "{} WHERE white_id = ?1 OR black_id = ?1 ORDER BY number DESC LIMIT ?2 OFFSET ?3",
            line_select()
        ),
        params![player.0, limit, skip],
    )
}

/// The players with a public game (an address of theirs confirmed), by
/// userid, at most `limit` after the first `skip`: each userid and how
/// many public games they have.
pub fn players_with_games(
    conn: &Connection,
    limit: u32,
    skip: u32,
) -> Result<Vec<(String, u32)>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT p.userid, (SELECT COUNT(*) FROM boards b
             WHERE (b.white_id = p.id OR b.black_id = p.id) AND {listed}) AS games
         FROM players p
         WHERE EXISTS (SELECT 1 FROM addresses a WHERE a.player_id = p.id) AND games > 0
         ORDER BY p.userid LIMIT ?1 OFFSET ?2",
        listed = LISTED.replace("?v", "NULL")
    ))?;
    let rows = statement.query_map([limit, skip], |row| Ok((row.get(0)?, row.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
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

/// A finished game of a ladder, as its page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderResult {
    pub board: u32,
    pub challenger: String,
    pub defender: String,
    pub result: String,
    pub finished_at: OffsetDateTime,
}

/// The last `limit` public games of ladder `ladder` that ended, the
/// latest first.
pub fn ladder_results(
    conn: &Connection,
    ladder: i64,
    limit: u32,
) -> Result<Vec<LadderResult>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT b.number, c.userid, d.userid, b.result, b.finished_at
         FROM ladder_games g JOIN boards b ON b.number = g.board
         JOIN players c ON c.id = g.challenger_id JOIN players d ON d.id = g.defender_id
         WHERE g.ladder_id = ?1 AND b.result IS NOT NULL AND b.finished_at IS NOT NULL AND {}
         ORDER BY b.finished_at DESC, b.number DESC LIMIT ?2",
        LISTED.replace("?v", "NULL")
    ))?;
    let rows = statement.query_map(params![ladder, limit], |row| {
        Ok((
            row.get::<_, u32>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
            row.get::<_, String>(3)?,
            row.get::<_, String>(4)?,
        ))
    })?;
    rows.map(|row| {
        let (board, challenger, defender, result, finished) = row?;
        Ok(LadderResult {
            board,
            challenger,
            defender,
            result,
            finished_at: parse_time(&finished)?,
        })
    })
    .collect()
}

/// A game as the site's feed announces it: number, variant, White's and
/// Black's userids and when the board was made.
pub type NewGame = (u32, Variant, String, String, OffsetDateTime);

/// The `limit` public games begun last, the newest first.
pub fn new_games(conn: &Connection, limit: u32) -> Result<Vec<NewGame>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT b.number, b.variant, w.userid, k.userid, b.created_at FROM boards b
         JOIN players w ON w.id = b.white_id JOIN players k ON k.id = b.black_id
         WHERE {} ORDER BY b.created_at DESC, b.number DESC LIMIT ?1",
        LISTED.replace("?v", "NULL")
    ))?;
    let rows = statement.query_map([limit], |row| {
        Ok((
            row.get::<_, u32>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
            row.get::<_, String>(3)?,
            row.get::<_, String>(4)?,
        ))
    })?;
    rows.map(|row| {
        let (number, variant, white, black, created) = row?;
        let variant = variant.parse().map_err(|_| {
            StoreError::Corrupt(format!("board {number} has unknown variant {variant:?}"))
        })?;
        Ok((number, variant, white, black, parse_time(&created)?))
    })
    .collect()
}

/// When event `event` finished, if it did.
pub fn event_finished_at(
    conn: &Connection,
    event: i64,
) -> Result<Option<OffsetDateTime>, StoreError> {
    let text: Option<String> = conn
        .query_row_cached(
            "SELECT finished_at FROM tournaments WHERE id = ?1 AND status = 'finished'",
            [event],
            |row| row.get(0),
        )
        .optional()?
        .flatten();
    text.as_deref().map(parse_time).transpose()
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
    /// Public games (no `--private` game, no unaccepted challenge).
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
            (SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL AND given_up_at IS NULL),
            (SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL),
            (SELECT COUNT(*) FROM processed),
            (SELECT COUNT(*) FROM boards WHERE result IS NULL AND challenged_id IS NULL AND private = 0),
            (SELECT COUNT(*) FROM boards WHERE result IS NOT NULL AND challenged_id IS NULL AND private = 0),
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
            start_position: None,
            opening: None,
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

        let public = |n: u32| board_facts(conn, n).expect("query").map(|f| f.public);
        assert_eq!(public(game.0), Some(true));
        assert_eq!(public(challenge.0), Some(false));
        assert_eq!(public(99), None);
        assert_eq!(listed_boards_of(conn, bob, None).expect("listed"), [game]);
        assert_eq!(
            listed_boards_of(conn, bob, Some(alice)).expect("listed"),
            [challenge, game]
        );
        let running = running_boards(conn, 10, 0).expect("running");
        assert_eq!(
            running.iter().map(|b| b.number).collect::<Vec<_>>(),
            [game.0]
        );
        assert_eq!(boards_of(conn, bob, 10, 0).expect("bob's").len(), 1);
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
        let facts = board_facts(conn, game.0).expect("query").expect("a board");
        assert!(!facts.public);
        assert!(running_boards(conn, 10, 0).expect("running").is_empty());
        assert!(boards_of(conn, alice, 10, 0).expect("alice's").is_empty());
        assert_eq!(counts(conn).expect("counts").boards_running, 0);
        // A game of no event is shown as it stands; an unknown event has no delay.
        assert_eq!(facts.delay, 0);
        assert_eq!(public_delay(conn, 99).expect("delay"), 0);
    }
}
