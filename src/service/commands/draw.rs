//! The act of `draw`: a draw by agreement when the opponent offered one, a draw claimed
//! (threefold repetition, the 50-move rule) by the player to move, or else
//! an offer.

use super::{Act, Asked};
use crate::command::draw::Draw;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, Occasion};
use crate::service::challenges;
use crate::service::ending::{Ending, end_game};
use crate::service::play::{
    DRAW_BY_AGREEMENT, board_action, drop_conditional_lines, offer_by_opponent,
};
use crate::service::{Failure, MailCtx};
use crate::store::boards::{self, OfferKind};

impl Act for Draw {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let (number, player, loaded, color) =
            board_action(ctx, self.board, &self.speaker, asked.token, false)?;
        // The challenged player's first word on the board accepts the
        // challenge, as a turn does, and then acts.
        challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
        let opponent = loaded.board.player(!color);
        if offer_by_opponent(ctx, number, opponent, OfferKind::Draw)? {
            end_game(ctx, number, DRAW_BY_AGREEMENT)?;
        } else if let (true, Some(claim)) = (
            loaded.game.state().turn() == color,
            loaded.game.draw_claim(),
        ) {
            let reason = match claim {
                crate::rules::game::DrawClaim::ThreefoldRepetition => {
                    "draw claimed: threefold repetition"
                }
                crate::rules::game::DrawClaim::FiftyTurnRule => "draw claimed: 50-move rule",
            };
            end_game(
                ctx,
                number,
                Ending::Played {
                    score: "1/2-1/2",
                    reason,
                },
            )?;
        } else {
            drop_conditional_lines(ctx, number, "a draw was offered")?;
            boards::set_offer(
                ctx.conn,
                number,
                OfferKind::Draw,
                player.id,
                loaded.turns.len() as u32,
                ctx.now,
            )?;
        }
        drop(loaded);
        Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
    }
}
