//! Boards and everything attached to one: turns, comments, offers, queued
//! turns and observers.

use rusqlite::{Connection, OptionalExtension, params};
use shakmaty::Color;
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time, time_text};
use crate::domain::BoardNumber;
use crate::openings::Opening;
use crate::rules::{Game, Variant};

/// The first board number handed out.
pub const FIRST_BOARD: BoardNumber = BoardNumber(101);

/// Deadlines and rating of a board, fixed at `challenge`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardOptions {
    pub rated: bool,
    /// Days each turn may take, if the board has a per-turn allowance.
    pub days_per_turn: Option<u32>,
    /// Days without a move before the first (and between) reminders.
    pub nag_days: u32,
    /// Days without a move before the game is lost on time.
    pub forfeit_days: u32,
    /// Chess960: the number of the starting array (0 to 959); `None` for
    /// the usual start of every other variant.
    pub start_position: Option<u32>,
    /// A thematic start: the opening whose moves the game starts after
    /// (chess only).
    pub opening: Option<Opening>,
}

/// A board as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub number: BoardNumber,
    pub variant: Variant,
    pub white: PlayerId,
    pub black: PlayerId,
    pub options: BoardOptions,
    pub created_at: OffsetDateTime,
    pub last_turn_at: OffsetDateTime,
    /// `1-0`, `0-1`, `1/2-1/2`, or `-` for a declined challenge; `None`
    /// while the game is on.
    pub result: Option<String>,
    pub end_reason: Option<String>,
}

impl Board {
    /// The game as it stands before the first turn: the usual start, for
    /// Chess960 the board's starting array (a board from before Chess960
    /// existed has none and starts from the usual array, 518), for a
    /// thematic chess game the position after its opening's moves.
    pub fn initial_game(&self) -> Game {
        if let Some(game) = self
            .options
            .opening
            .as_ref()
            .filter(|_| self.variant == Variant::Chess)
            .and_then(Opening::game)
        {
            return game;
        }
        self.options
            .start_position
            .filter(|_| self.variant == Variant::Chess960)
            .and_then(Game::chess960)
            .unwrap_or_else(|| Game::new(self.variant))
    }

    pub fn player(&self, color: Color) -> PlayerId {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The colour `player` plays here, if they play here.
    pub fn color_of(&self, player: PlayerId) -> Option<Color> {
        if player == self.white {
            Some(Color::White)
        } else if player == self.black {
            Some(Color::Black)
        } else {
            None
        }
    }

    pub fn is_finished(&self) -> bool {
        self.result.is_some()
    }
}

/// One stored turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTurn {
    pub seq: u32,
    pub text: String,
    pub player: PlayerId,
    pub played_at: OffsetDateTime,
}

/// A comment or chat line under the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub author: Option<PlayerId>,
    pub after_seq: u32,
    pub text: String,
}

/// What a standing offer asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    Draw,
    Undo,
}

impl OfferKind {
    fn as_str(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Undo => "undo",
        }
    }
}

/// A standing offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub kind: OfferKind,
    pub by: PlayerId,
    pub at_seq: u32,
}

/// Creates a board with the next free number.
pub fn insert(
    conn: &Connection,
    variant: Variant,
    white: PlayerId,
    black: PlayerId,
    options: BoardOptions,
    now: OffsetDateTime,
) -> Result<BoardNumber, StoreError> {
    let number: BoardNumber = conn.query_row_cached(
        "SELECT MAX(COALESCE(MAX(number) + 1, 0), ?1) FROM boards",
        [FIRST_BOARD],
        |row| row.get(0),
    )?;
    let now = time_text(now);
    conn.execute_cached(
        "INSERT INTO boards (number, variant, white_id, black_id, rated, days_per_turn, nag_days,
                             forfeit_days, created_at, last_turn_at, start_position, opening)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11)",
        params![
            number,
            variant.id(),
            white.0,
            black.0,
            options.rated,
            options.days_per_turn,
            options.nag_days,
            options.forfeit_days,
            now,
            options.start_position,
            options.opening.as_ref().map(Opening::stored)
        ],
    )?;
    Ok(number)
}

const BOARD_COLUMNS: &str = "number, variant, white_id, black_id, rated, days_per_turn, nag_days,
    forfeit_days, created_at, last_turn_at, result, end_reason, start_position, opening";

fn board_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<(Board, String, String, String)> {
    let variant: String = row.get(1)?;
    let board = Board {
        number: row.get(0)?,
        // Replaced below once the text is validated.
        variant: Variant::Chess,
        white: PlayerId(row.get(2)?),
        black: PlayerId(row.get(3)?),
        options: BoardOptions {
            rated: row.get(4)?,
            days_per_turn: row.get(5)?,
            nag_days: row.get(6)?,
            forfeit_days: row.get(7)?,
            start_position: row.get(12)?,
            opening: row
                .get::<_, Option<String>>(13)?
                .as_deref()
                .and_then(Opening::from_stored),
        },
        created_at: OffsetDateTime::UNIX_EPOCH,
        last_turn_at: OffsetDateTime::UNIX_EPOCH,
        result: row.get(10)?,
        end_reason: row.get(11)?,
    };
    Ok((board, variant, row.get(8)?, row.get(9)?))
}

fn finish_board(
    (mut board, variant, created, last): (Board, String, String, String),
) -> Result<Board, StoreError> {
    board.variant = variant.parse().map_err(|_| {
        StoreError::Corrupt(format!(
            "board {} has unknown variant {variant:?}",
            board.number
        ))
    })?;
    board.created_at = parse_time(&created)?;
    board.last_turn_at = parse_time(&last)?;
    Ok(board)
}

pub fn get(conn: &Connection, number: BoardNumber) -> Result<Option<Board>, StoreError> {
    let sql = format!("SELECT {BOARD_COLUMNS} FROM boards WHERE number = ?1");
    conn.query_row_cached(&sql, [number], board_from_row)
        .optional()?
        .map(finish_board)
        .transpose()
}

/// The running games of `player` whose challenge was accepted, oldest
/// first: the games an opponent of theirs is entitled to hear about (a
/// challenge still waiting is no game of the challenged player's yet).
pub fn accepted_running(conn: &Connection, player: PlayerId) -> Result<Vec<Board>, StoreError> {
    let sql = format!(
        "SELECT {BOARD_COLUMNS} FROM boards
         WHERE (white_id = ?1 OR black_id = ?1) AND result IS NULL AND challenged_id IS NULL
         ORDER BY number"
    );
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map([player.0], board_from_row)?;
    rows.map(|row| finish_board(row?)).collect()
}

pub fn turns(conn: &Connection, board: BoardNumber) -> Result<Vec<StoredTurn>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT seq, text, player_id, played_at FROM turns WHERE board = ?1 ORDER BY seq",
    )?;
    let rows = statement.query_map([board], |row| {
        Ok((
            row.get(0)?,
            row.get(1)?,
            PlayerId(row.get(2)?),
            row.get::<_, String>(3)?,
        ))
    })?;
    rows.map(|row| {
        let (seq, text, player, played_at) = row?;
        Ok(StoredTurn {
            seq,
            text,
            player,
            played_at: parse_time(&played_at)?,
        })
    })
    .collect()
}

/// Appends a turn and restarts the board's clock.
pub fn append_turn(
    conn: &Connection,
    board: BoardNumber,
    seq: u32,
    text: &str,
    player: PlayerId,
    message_id: Option<&str>,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    let at = now;
    let now = time_text(now);
    conn.execute_cached(
        "INSERT INTO turns (board, seq, text, player_id, played_at, message_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![board, seq, text, player.0, now, message_id],
    )?;
    conn.execute_cached(
        "UPDATE boards SET last_turn_at = ?2 WHERE number = ?1",
        params![board, now],
    )?;
    super::clocks::log(conn, board, "turn", at)?;
    Ok(())
}

/// Takes back the last turn (an accepted undo), and what was written
/// under it (its comment, chat and pbem's notes since it was played): an
/// undone turn's words go with it, so they never come back when the game
/// reaches that turn again or in the result mail.
pub fn remove_last_turn(
    conn: &Connection,
    board: BoardNumber,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "DELETE FROM comments WHERE board = ?1
           AND after_seq >= (SELECT MAX(seq) FROM turns WHERE board = ?1)",
        [board],
    )?;
    conn.execute_cached(
        "DELETE FROM turns WHERE board = ?1 AND seq = (SELECT MAX(seq) FROM turns WHERE board = ?1)",
        [board],
    )?;
    conn.execute_cached(
        "UPDATE boards SET last_turn_at = ?2 WHERE number = ?1",
        params![board, time_text(now)],
    )?;
    super::clocks::log(conn, board, "takeback", now)?;
    Ok(())
}

pub fn set_result(
    conn: &Connection,
    board: BoardNumber,
    result: &str,
    reason: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE boards SET result = ?2, end_reason = ?3, finished_at = ?4 WHERE number = ?1",
        params![board, result, reason, time_text(now)],
    )?;
    conn.execute_cached("DELETE FROM offers WHERE board = ?1", [board])?;
    conn.execute_cached("DELETE FROM queued_turns WHERE board = ?1", [board])?;
    // A game's end drops every conditional line on it.
    conn.execute_cached("DELETE FROM conditional_lines WHERE board = ?1", [board])?;
    Ok(())
}

/// Marks board `board` unrated (a game scored without being played).
pub fn set_unrated(conn: &Connection, board: BoardNumber) -> Result<(), StoreError> {
    conn.execute_cached("UPDATE boards SET rated = 0 WHERE number = ?1", [board])?;
    Ok(())
}

pub fn add_comment(
    conn: &Connection,
    board: BoardNumber,
    author: Option<PlayerId>,
    after_seq: u32,
    text: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO comments (board, player_id, after_seq, text, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![board, author.map(|p| p.0), after_seq, text, time_text(now)],
    )?;
    Ok(())
}

/// Comments written since turn `since_seq` was played.
pub fn comments_since(
    conn: &Connection,
    board: BoardNumber,
    since_seq: u32,
) -> Result<Vec<Comment>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT player_id, after_seq, text FROM comments WHERE board = ?1 AND after_seq >= ?2 ORDER BY id",
    )?;
    let rows = statement.query_map(params![board, since_seq], |row| {
        Ok(Comment {
            author: row.get::<_, Option<i64>>(0)?.map(PlayerId),
            after_seq: row.get(1)?,
            text: row.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn offer(
    conn: &Connection,
    board: BoardNumber,
    kind: OfferKind,
) -> Result<Option<Offer>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT by_player, at_seq FROM offers WHERE board = ?1 AND kind = ?2",
            params![board, kind.as_str()],
            |row| {
                Ok(Offer {
                    kind,
                    by: PlayerId(row.get(0)?),
                    at_seq: row.get(1)?,
                })
            },
        )
        .optional()?)
}

pub fn set_offer(
    conn: &Connection,
    board: BoardNumber,
    kind: OfferKind,
    by: PlayerId,
    at_seq: u32,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO offers (board, kind, by_player, at_seq, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (board, kind) DO UPDATE SET by_player = excluded.by_player,
             at_seq = excluded.at_seq, created_at = excluded.created_at",
        params![board, kind.as_str(), by.0, at_seq, time_text(now)],
    )?;
    Ok(())
}

pub fn clear_offer(
    conn: &Connection,
    board: BoardNumber,
    kind: OfferKind,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "DELETE FROM offers WHERE board = ?1 AND kind = ?2",
        params![board, kind.as_str()],
    )?;
    Ok(())
}

pub fn queued_turn(
    conn: &Connection,
    board: BoardNumber,
    player: PlayerId,
) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT text FROM queued_turns WHERE board = ?1 AND player_id = ?2",
            params![board, player.0],
            |row| row.get(0),
        )
        .optional()?)
}

pub fn set_queued_turn(
    conn: &Connection,
    board: BoardNumber,
    player: PlayerId,
    text: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO queued_turns (board, player_id, text, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (board, player_id) DO UPDATE SET text = excluded.text, created_at = excluded.created_at",
        params![board, player.0, text, time_text(now)],
    )?;
    Ok(())
}

pub fn clear_queued_turn(
    conn: &Connection,
    board: BoardNumber,
    player: PlayerId,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "DELETE FROM queued_turns WHERE board = ?1 AND player_id = ?2",
        params![board, player.0],
    )?;
    Ok(())
}

pub fn observers(conn: &Connection, board: BoardNumber) -> Result<Vec<String>, StoreError> {
    let mut statement =
        conn.prepare_cached("SELECT address FROM observers WHERE board = ?1 ORDER BY address")?;
    let rows = statement.query_map([board], |row| row.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Adds an observer; false if it was already there.
pub fn add_observer(
    conn: &Connection,
    board: BoardNumber,
    address: &str,
) -> Result<bool, StoreError> {
    Ok(conn.execute_cached(
        "INSERT OR IGNORE INTO observers (board, address) VALUES (?1, ?2)",
        params![board, address],
    )? == 1)
}

/// Removes an observer; false if it was not there.
pub fn remove_observer(
    conn: &Connection,
    board: BoardNumber,
    address: &str,
) -> Result<bool, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM observers WHERE board = ?1 AND address = ?2",
        params![board, address],
    )? == 1)
}

/// The challenge of a board that its challenged player has not accepted
/// (migration 0017): it waits while the game is on, and stays recorded on
/// a board that ended unaccepted (declined or lapsed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unaccepted {
    pub challenged: PlayerId,
    /// The number of turns the challenged player's last board mail showed.
    pub shown: u32,
}

/// Marks a new board as a challenge waiting for `challenged`, made by
/// the mail `message_id`.
pub fn set_challenge(
    conn: &Connection,
    board: BoardNumber,
    challenged: PlayerId,
    message_id: &str,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE boards SET challenged_id = ?2, challenged_shown = 0, challenge_mail = ?3 WHERE number = ?1",
        params![board, challenged.0, message_id],
    )?;
    Ok(())
}

/// The challenge of board `board` if its challenged player never
/// accepted it.
pub fn unaccepted(conn: &Connection, board: BoardNumber) -> Result<Option<Unaccepted>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT challenged_id, challenged_shown FROM boards
             WHERE number = ?1 AND challenged_id IS NOT NULL",
            [board],
            |row| {
                Ok(Unaccepted {
                    challenged: PlayerId(row.get(0)?),
                    shown: row.get(1)?,
                })
            },
        )
        .optional()?)
}

/// Records that the waiting challenged player's board mail showed `turns`
/// turns.
pub fn set_challenge_shown(
    conn: &Connection,
    board: BoardNumber,
    turns: u32,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE boards SET challenged_shown = ?2 WHERE number = ?1",
        params![board, turns],
    )?;
    Ok(())
}

/// The challenged player accepts: the board becomes a game like any
/// other, and the clock of the player to move starts now. What the
/// challenger wrote under the board while it waited (a comment under the
/// first turn) was held back from the challenged player; it stays, and
/// the first board mail after the acceptance shows it.
pub fn accept_challenge(
    conn: &Connection,
    board: BoardNumber,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE boards SET challenged_id = NULL, last_turn_at = ?2, nags_sent = 0 WHERE number = ?1",
        params![board, time_text(now)],
    )?;
    super::clocks::log(conn, board, "start", now)?;
    Ok(())
}

/// Challenges by `challenger` not accepted: those that wait, and those
/// made since `since` that ended unaccepted (declined, withdrawn or
/// lapsed); to `opponent` alone, and to anybody.
pub fn unanswered_challenges(
    conn: &Connection,
    challenger: PlayerId,
    opponent: PlayerId,
    since: OffsetDateTime,
) -> Result<(u32, u32), StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COALESCE(SUM(challenged_id = ?2), 0), COUNT(*) FROM boards
         WHERE challenged_id IS NOT NULL AND challenged_id != ?1
           AND (white_id = ?1 OR black_id = ?1)
           AND (result IS NULL OR created_at > ?3)",
        params![challenger.0, opponent.0, time_text(since)],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?)
}

/// The games `player` has in progress: every unfinished board they play
/// on, except challenges to them they have not accepted.
pub fn in_progress(conn: &Connection, player: PlayerId) -> Result<u32, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM boards
         WHERE result IS NULL AND (white_id = ?1 OR black_id = ?1)
           AND (challenged_id IS NULL OR challenged_id != ?1)",
        [player.0],
        |row| row.get(0),
    )?)
}

/// Challenges still waiting for an answer: board number, when the
/// challenge was made, and its forfeit days (after which it lapses).
pub fn waiting_for_answer(
    conn: &Connection,
) -> Result<Vec<(BoardNumber, OffsetDateTime, u32)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT number, created_at, forfeit_days FROM boards
         WHERE challenged_id IS NOT NULL AND result IS NULL ORDER BY number",
    )?;
    let rows = statement.query_map([], |row| {
        Ok((
            row.get::<_, BoardNumber>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, u32>(2)?,
        ))
    })?;
    rows.map(|row| {
        let (number, created, days) = row?;
        Ok((number, parse_time(&created)?, days))
    })
    .collect()
}

/// The number of turns played on `board`.
pub fn turn_count(conn: &Connection, board: BoardNumber) -> Result<u32, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM turns WHERE board = ?1",
        [board],
        |row| row.get(0),
    )?)
}
