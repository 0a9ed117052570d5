//! The PGN routes: `/boards/<n>.pgn` and `/events/<name>.pgn`, the same
//! text as the `pgn` and `tournament pgn` mails (see `render::pgn`).

use rusqlite::Connection;

use super::pages::{Loaded, event_named, load};
use super::{Page, Site, WebError};
use crate::domain::BoardNumber;
use crate::render::pgn;
use crate::store::tournaments as events;
use crate::store::{self, ratings};

const PGN: &str = "application/vnd.chess-pgn; charset=utf-8";

/// The PGN of a loaded board, with the tags of the PGN a finished game's
/// mail attaches; an event's game names its event and round.
fn pgn_of(
    site: &Site,
    conn: &Connection,
    loaded: &Loaded,
    event: Option<(&str, u32)>,
) -> Result<String, WebError> {
    let board = &loaded.board;
    Ok(pgn::pgn_text(
        pgn::PgnHeader {
            site: site.address.clone(),
            board: board.number.0,
            event,
            date: board.created_at.date(),
            white: loaded.white.clone(),
            black: loaded.black.clone(),
            result: board.result.as_deref(),
            variant: board.variant,
            start_fen: pgn::start_fen(board),
            opening: board.options.opening.as_ref(),
            elo: ratings::before(conn, board.number)?,
            control: store::clocks::control_of(conn, board)?,
            end_reason: board.end_reason.as_deref(),
        },
        &pgn::record_from_usual_start(board.options.opening.as_ref(), &loaded.game),
    ))
}

/// `/boards/<n>.pgn`.
pub fn board_pgn(site: &Site, conn: &Connection, number: u32) -> Result<Page, WebError> {
    let loaded = load(conn, number)?;
    let event = match events::game_of_board(conn, BoardNumber(number))? {
        Some((id, game)) => Some((events::by_id(conn, id)?.settings.name, game.round)),
        None => None,
    };
    Ok(Page {
        content_type: PGN,
        body: pgn_of(
            site,
            conn,
            &loaded,
            event.as_ref().map(|(name, round)| (name.as_str(), *round)),
        )?,
    })
}

/// `/events/<name>.pgn`: every game of the event.
pub fn event_pgn(site: &Site, conn: &Connection, name: &str) -> Result<Page, WebError> {
    let event = event_named(conn, name)?;
    let games = events::games(conn, event.id)?;
    if games.is_empty() {
        // No games, no PGN: an empty file would read as a valid one.
        return Err(WebError::NotFound);
    }
    let mut body = String::new();
    for game in games {
        let loaded = load(conn, game.board.0)?;
        body.push_str(&pgn_of(
            site,
            conn,
            &loaded,
            Some((&event.settings.name, game.round)),
        )?);
        body.push('\n');
    }
    Ok(Page {
        content_type: PGN,
        body,
    })
}
