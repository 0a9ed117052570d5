//! The ladders' side of the rest of the service: [`game_ended`], which
//! `ending::end_game` calls for every game that ends, in the same
//! transaction, to move the order when a challenger won; the ladders'
//! lines in `tournaments`; and a player as the ladder rules see them.

use crate::domain::{BoardNumber, PlayerId};
use crate::service::{Ctx, ServiceError};
use crate::store::boards;
use crate::store::ladders::{self as store, Rung};
use crate::store::players::{self, Player};
use crate::tournament::ladder::Shift;

/// The ladders as lines of `tournaments` (name, `ladder`, variant,
/// players), in the columns of its events.
pub(super) fn list_lines(ctx: &Ctx<'_>) -> Result<String, ServiceError> {
    let mut lines = String::new();
    for ladder in store::all(ctx.conn)? {
        let s = &ladder.settings;
        lines.push_str(&format!(
            "  {:<20} {:<9} {:<10} {:<22} {}\n",
            s.name,
            "standing",
            s.variant.display_name(),
            "ladder",
            crate::render::count(store::rungs(ctx.conn, ladder.id)?.len(), "player"),
        ));
    }
    Ok(lines)
}

/// The ladder's side of board `board`'s end, if it is a ladder game the
/// ladder waits for: a challenger's win (over the board, on time or by
/// forfeit) moves the order; anything else changes nothing. Said in the
/// board's mail of the end.
pub(super) fn game_ended(
    ctx: &Ctx<'_>,
    board: BoardNumber,
    score: &str,
) -> Result<(), ServiceError> {
    let Some(game) = store::open_game_of_board(ctx.conn, board)? else {
        return Ok(());
    };
    let ladder = store::by_id(ctx.conn, game.ladder)?;
    let mut order = store::order(ctx.conn, &ladder)?;
    let Some(on_board) = boards::get(ctx.conn, board)? else {
        return Ok(());
    };
    let challenger_won = match score {
        "1-0" => on_board.white == game.challenger,
        "0-1" => on_board.black == game.challenger,
        _ => false,
    };
    let rung = |player: PlayerId| -> Result<Rung, ServiceError> {
        Ok(rung_of(&players::by_id(ctx.conn, player)?))
    };
    let (challenger, defender) = (rung(game.challenger)?, rung(game.defender)?);
    store::set_outcome(ctx.conn, board, score)?;
    let name = &ladder.settings.name;
    let news = match order.result(&challenger, &defender, challenger_won) {
        Ok(Shift::Moved { from, to }) => {
            store::set_order(ctx.conn, ladder.id, order.players())?;
            // Everyone pushed down, by name: the defender, then those
            // between.
            let pushed: Vec<(u32, &Rung)> = order
                .players()
                .iter()
                .enumerate()
                .map(|(index, rung)| (index as u32 + 1, rung))
                .filter(|&(place, _)| place > to && place <= from)
                .collect();
            let moves: Vec<String> = pushed
                .iter()
                // not a count: "moves" is a verb.
                .map(|(place, rung)| format!("{rung} moves down to place {place}"))
                .collect();
            let news = format!(
                "Ladder \"{name}\": {challenger} takes place {to} from {defender}; {}.",
                moves.join(", ")
            );
            // Those between, not on the board, hear of it by a mail of
            // their own; the two players read it in the board's mail.
            for &(place, rung) in pushed.iter().filter(|(_, r)| **r != defender) {
                let player = players::by_id(ctx.conn, rung.player)?;
                let text = format!(
                    "{news}\n\n{}, you move down one, from place {} to place {place}: {challenger} beat {defender} on board {board} and took place {to}.",
                    player.userid,
                    place - 1,
                );
                let mail = super::event_rounds::notice_to(
                    ctx,
                    &player,
                    &format!("pbem ladder {name}: you are now in place {place}"),
                    &text,
                )?;
                ctx.send_later([mail]);
            }
            news
        }
        Ok(Shift::Unchanged) | Err(_) => {
            format!("Ladder \"{name}\": the order is unchanged.")
        }
    };
    ctx.tell(board, news);
    Ok(())
}

pub(super) fn rung_of(player: &Player) -> Rung {
    Rung {
        player: player.id,
        userid: player.userid.clone(),
    }
}
