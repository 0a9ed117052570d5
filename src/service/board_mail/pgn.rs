//! A board's PGN: what `pgn` shows and a finished game's mail attaches.

use super::load::{Loaded, load};
use super::views::BoardFacts;
use crate::domain::BoardNumber;
use crate::mail::outgoing;
use crate::reader::Who;
use crate::render::pgn::{self, PgnHeader};
use crate::service::{Ctx, Failure};
use crate::store::{StoreError, clocks, players, ratings};

/// The PGN of board `number` as `who` may read it (a running game of an
/// event with a `--public-delay` that many turns behind, for all but its
/// players and a director who does not play; nothing of a board they may
/// not see); a tournament game names its event and round (`event`), and
/// carries the board number in a `Board` tag.
pub fn board_pgn(
    ctx: &Ctx<'_>,
    number: BoardNumber,
    event: Option<(&str, u32)>,
    who: Who<'_>,
) -> Result<Option<String>, Failure> {
    let Some(sight) = crate::reader::board(ctx.conn, number, who)? else {
        return Ok(None);
    };
    let mut loaded = load(ctx, number)?;
    let shown = sight.turns_shown(loaded.turns.len());
    if shown < loaded.turns.len() {
        loaded.game = super::load::replay(&loaded.board, &loaded.turns, shown)?;
        loaded.turns.truncate(shown);
    }
    let white = players::by_id(ctx.conn, loaded.board.white)?.userid;
    let black = players::by_id(ctx.conn, loaded.board.black)?.userid;
    Ok(Some(pgn_text(ctx, &loaded, white, black, event)?))
}

/// The PGN of a loaded board (with the Variant tag); also what a finished
/// game's board mail attaches.
pub fn pgn_text(
    ctx: &Ctx<'_>,
    loaded: &Loaded,
    white: String,
    black: String,
    event: Option<(&str, u32)>,
) -> Result<String, StoreError> {
    let header = PgnHeader {
        site: ctx.config.address.to_string(),
        board: loaded.board.number.0,
        event,
        date: loaded.board.created_at.date(),
        white,
        black,
        result: loaded.board.result.as_deref(),
        variant: loaded.board.variant,
        start_fen: crate::render::pgn::start_fen(&loaded.board),
        opening: loaded.board.options.opening.as_ref(),
        elo: ratings::before(ctx.conn, loaded.board.number)?,
        control: clocks::control_of(ctx.conn, &loaded.board)?,
        end_reason: loaded.board.end_reason.as_deref(),
    };
    let record = pgn::record_from_usual_start(loaded.board.options.opening.as_ref(), &loaded.game);
    Ok(pgn::pgn_text(header, &record))
}

/// What a finished game's mail attaches: its PGN as `board-<n>.pgn`.
pub(super) fn pgn_attachment(
    ctx: &Ctx<'_>,
    loaded: &Loaded,
    facts: &BoardFacts,
) -> Result<outgoing::File, StoreError> {
    let text = pgn_text(
        ctx,
        loaded,
        facts.white.userid.clone(),
        facts.black.userid.clone(),
        None,
    )?;
    Ok(outgoing::File {
        name: format!("board-{}.pgn", loaded.board.number),
        mime: "application/vnd.chess-pgn".to_string(),
        bytes: text.into_bytes(),
    })
}
