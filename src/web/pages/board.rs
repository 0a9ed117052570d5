//! A board's page and feed: the position after any public turn
//! (`?turn=K`, the last one without it), its last turn marked, the
//! players with their ratings, the pieces in words for screen readers,
//! the turns each linking to the position after it, the deadlines.

use rusqlite::Connection;
use serde::Serialize;
use shakmaty::{Color, Position};

use super::{FeedEntry, atom_feed, html};
use crate::domain::BoardNumber;
use crate::reader::{self, Who};
use crate::render::board::spoken_position;
use crate::render::picture::last_turn_squares;
use crate::render::readable_time;
use crate::rules::Game;
use crate::rules::notation::parse_turn;
use crate::schedule;
use crate::store::boards::{self, Board, StoredTurn};
use crate::store::tournaments as events;
use crate::store::{self, ratings, web};
use crate::web::{Page, Site, WebError, svg};

/// A public board with its game replayed, as far as the public may see
/// it.
pub(in crate::web) struct Loaded {
    pub(in crate::web) board: Board,
    pub(in crate::web) game: Game,
    turns: Vec<StoredTurn>,
    pub(in crate::web) white: String,
    pub(in crate::web) black: String,
    /// Turns held back: its event's `--public-delay` while it runs, else 0.
    delay: u32,
}

pub(in crate::web) fn load(conn: &Connection, number: u32) -> Result<Loaded, WebError> {
    let sight = reader::board(conn, BoardNumber(number), Who::Web)?.ok_or(WebError::NotFound)?;
    let board = boards::get(conn, BoardNumber(number))?.ok_or(WebError::NotFound)?;
    let mut turns = boards::turns(conn, BoardNumber(number))?;
    // The latest turns of a delayed event game are not public yet.
    let delay = sight.hidden_turns;
    turns.truncate(sight.turns_shown(turns.len()));
    let game = replay(&board, &turns)?;
    Ok(Loaded {
        white: web::userid(conn, board.white)?,
        black: web::userid(conn, board.black)?,
        board,
        game,
        turns,
        delay,
    })
}

/// The game of `board` after `turns`.
fn replay(board: &Board, turns: &[StoredTurn]) -> Result<Game, WebError> {
    let mut game = board.initial_game();
    for turn in turns {
        let corrupt = |e: &dyn std::fmt::Display| {
            WebError::Failed(format!("board {} turn {}: {e}", board.number, turn.seq))
        };
        let moves = parse_turn(&turn.text).map_err(|e| corrupt(&e))?;
        game.play(&moves).map_err(|e| corrupt(&e))?;
    }
    Ok(game)
}

#[derive(Serialize)]
struct TurnRow {
    /// The turns played up to this one: `?turn=` of the position after it.
    count: usize,
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
    /// Each player's rating in the variant: before the game when it was
    /// rated and has ended, else the current one (none before a first
    /// rated game).
    white_rating: Option<i64>,
    black_rating: Option<i64>,
    /// The pieces in words, per side: the text board; and the position's
    /// FEN, for an analysis board.
    pieces: String,
    fen: String,
    /// The position shown: after `shown` of the `public` turns, the last
    /// of them numbered as the record numbers it (`2.Qh5`).
    shown: usize,
    shown_move: Option<String>,
    public: usize,
    /// The `?turn=` links to the first, previous, next and last positions
    /// (none where the shown position is that one already).
    steps: Vec<Step>,
    /// `&side=black` when seen from Black's side, kept in the links.
    side_query: &'static str,
}

#[derive(Serialize)]
struct Step {
    label: &'static str,
    /// Its query (`?turn=3`; `` for the last position).
    href: String,
}

/// `/boards/<n>`: the board from `side`, players, variant, turns,
/// deadlines, result.
/// With `turn`, the position after that many turns (0: the start),
/// counted as `show <board>#K` numbers them: 404 past the turns the public
/// sees.
pub fn board(
    site: &Site,
    conn: &Connection,
    number: u32,
    side: Color,
    turn: Option<u32>,
) -> Result<Page, WebError> {
    let loaded = load(conn, number)?;
    let Loaded {
        board,
        game: last_game,
        turns,
        white,
        black,
        delay,
    } = &loaded;
    let public = turns.len();
    let shown = match turn {
        None => public,
        Some(k) if (k as usize) <= public => k as usize,
        Some(_) => return Err(WebError::NotFound),
    };
    let earlier;
    let game = if shown == public {
        last_game
    } else {
        earlier = replay(board, &turns[..shown])?;
        &earlier
    };
    let state = game.state();
    let finished = board.result.is_some();
    let check = state
        .in_check()
        .then(|| state.pos().king(state.turn()))
        .flatten();
    // The label names the board; the text board below says the pieces.
    let label = format!(
        "{} board {} seen by {}, after {}",
        board.variant.spaced_name(),
        board.number,
        if side == Color::White {
            "White"
        } else {
            "Black"
        },
        match shown {
            0 => "no turn yet".to_string(),
            1 => "turn 1".to_string(),
            n => format!("turn {n}"),
        }
    );
    let marked = game
        .turns()
        .last()
        .map(|played| last_turn_squares(played.turn.moves()))
        .unwrap_or_default();
    let side_query = if side == Color::Black {
        "&side=black"
    } else {
        ""
    };
    let mut steps = Vec::new();
    if shown > 0 {
        steps.push(Step {
            label: "First",
            href: format!("?turn=0{side_query}"),
        });
        steps.push(Step {
            label: "Previous",
            href: format!("?turn={}{side_query}", shown - 1),
        });
    }
    if shown < public {
        steps.push(Step {
            label: "Next",
            href: format!("?turn={}{side_query}", shown + 1),
        });
        steps.push(Step {
            label: "Last",
            href: match side_query {
                "" => String::new(),
                side => format!("?{}", &side[1..]),
            },
        });
    }
    let rating = |player| -> Result<Option<i64>, WebError> {
        Ok(ratings::current(conn, player, board.variant)?.map(|r| r.rating.round() as i64))
    };
    let (white_rating, black_rating) = match ratings::before(conn, BoardNumber(number))? {
        Some((w, b)) if board.result.is_some() => (Some(w.round() as i64), Some(b.round() as i64)),
        _ => (rating(board.white)?, rating(board.black)?),
    };
    let (mut reminder_at, mut forfeit_at) = (None, None);
    // The deadlines are the game's now, whichever position is shown.
    let mover = last_game.state().turn();
    // A delayed game's clocks and deadlines would tell when its hidden
    // turns were played.
    let control = crate::store::clocks::stored_clock(conn, BoardNumber(number))?
        .map(|stored| format!("{} ({})", stored.control, stored.control.describe()));
    let mut player_clocks = Vec::new();
    let timed = match store::deadlines::deadlines_of(conn, BoardNumber(number))? {
        Some(_) if !finished && *delay == 0 => {
            crate::store::clocks::board_clock(conn, board, mover, site.time_source.now())?
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
        let mover = board.player(mover);
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
        svg: svg::board(state.pos().board(), side, check, &marked, &label),
        pieces: spoken_position(state.pos().board()),
        fen: game.fen(),
        result: board.result.clone(),
        end_reason: board.end_reason.clone(),
        to_move: (!finished || shown < public).then(|| match state.turn() {
            Color::White => white.clone(),
            Color::Black => black.clone(),
        }),
        in_check: check.is_some(),
        turns: last_game
            .turns()
            .iter()
            .zip(turns)
            .enumerate()
            .map(|(i, (played, stored))| TurnRow {
                count: i + 1,
                numbered: played.numbered(),
                by: match played.mover {
                    Color::White => white.clone(),
                    Color::Black => black.clone(),
                },
                played_at: readable_time(stored.played_at),
            })
            .collect(),
        record: last_game.record(),
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
        white_rating,
        black_rating,
        shown,
        shown_move: game.turns().last().map(|played| played.numbered()),
        public,
        steps,
        side_query,
    };
    html(site, "board.html", view)
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
