//! The act of `if`: a conditional line (or `clear`) checked against the
//! board and stored for its owner alone.

use pbem_conditional::{Added, Tree};

use super::{Act, Asked};
use crate::command::{If, IfWhat};
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::service::conditional::{current_tree, turn_count};
use crate::service::play::my_active_board;
use crate::service::{Failure, MailCtx, challenges, refuse};
use crate::store::boards;
use crate::store::conditional::{self as stored};

/// `if`: adds one line to the speaker's tree on the board, or clears it.
impl Act for If {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        let player = ctx.speaker(&self.speaker, asked.token, Some(number))?;
        let (loaded, color) = my_active_board(ctx, number, &player)?;
        if loaded.board.white == loaded.board.black {
            return Err(refuse(
                format!(
                    "board {number} is played by one player on both sides: it takes no conditional moves"
                ),
                Some(number),
            ));
        }
        let variant = loaded.board.variant.display_name();
        // A board number, not a count.
        let subject = format!("{variant} Board {number} conditional moves");
        let turns = turn_count(&loaded);
        let mut tree = current_tree(ctx, &loaded, player.id, color)?;
        let text = match &self.what {
            IfWhat::Clear => {
                let dropped = tree.clear();
                stored::clear(ctx.conn, number, player.id)?;
                match dropped {
                    0 => format!("You had no conditional moves on board {number}."),
                    1 => format!("Your conditional line on board {number} was dropped."),
                    n => format!(
                        "Your {} on board {number} were dropped.",
                        crate::render::count(n, "conditional line")
                    ),
                }
            }
            IfWhat::Line(written) => {
                if loaded.game.state().turn() == color {
                    return Err(refuse(
                        format!(
                            "it is your turn on board {number}: a conditional line starts with your opponent's next turn; send your turn first (move, then if, in one mail is fine); nothing was stored"
                        ),
                        Some(number),
                    ));
                }
                let added = tree.add(&loaded.game, written).map_err(|error| {
                    refuse(format!("{error}; nothing was stored"), Some(number))
                })?;
                // The challenged player's line accepts the challenge, as a
                // queued turn does.
                challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
                stored::set(
                    ctx.conn,
                    number,
                    player.id,
                    turns,
                    &tree.to_stored(),
                    ctx.now,
                )?;
                // The line alone, numbered as a record writes it; the whole
                // current list is shown once at the end of the answer
                // (`answer::finish`), not after each line.
                let mut alone = Tree::new(color);
                let numbered = alone
                    .add(&loaded.game, written)
                    .ok()
                    .and_then(|_| alone.numbered_lines(&loaded.game).into_iter().next())
                    .unwrap_or_else(|| written.clone());
                let mut text = match added {
                    Added::NewLine => {
                        format!("Conditional line added on board {number}: {numbered}.")
                    }
                    Added::Extended => format!(
                        "Conditional line extended on board {number}: {numbered}."
                    ),
                    Added::AlreadyThere => format!(
                        "That conditional line was already given on board {number}: {numbered}."
                    ),
                };
                // `queue` and `if` are one or the other: the lines replace a
                // queued turn.
                if boards::queued_turn(ctx.conn, number, player.id)?.is_some() {
                    boards::clear_queued_turn(ctx.conn, number, player.id)?;
                    text.push_str(
                        "\nYour queued turn was dropped: conditional moves take its place.",
                    );
                }
                text
            }
        };
        let notice = ctx.notice_to_sender(&subject, &text)?;
        ctx.lines_given(number, player.id, matches!(self.what, IfWhat::Line(_)));
        Ok(vec![notice])
    }
}
