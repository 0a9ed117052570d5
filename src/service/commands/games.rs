//! The act of `games`: a player's boards, as the sender may see them.

use super::{Act, Asked};
use crate::command::{Games, GamesFilter};
use crate::mail::outgoing::Outgoing;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::boards;
use crate::store::players::{self};

impl Act for Games {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let Some(player) = players::by_userid(ctx.conn, &self.userid)? else {
            return Err(refuse(
                format!("there is no player \"{}\"", self.userid),
                None,
            ));
        };
        let mut lines = Vec::new();
        // The boards the sender may list (a private game or an unaccepted
        // challenge only to its players), each as far as the sender sees it.
        let who = ctx.who()?;
        for number in crate::reader::boards_of(ctx.conn, player.id, who)? {
            let (Some(board), Some(sight)) = (
                boards::get(ctx.conn, number)?,
                crate::reader::board(ctx.conn, number, who)?,
            ) else {
                continue;
            };
            let mut turns = boards::turns(ctx.conn, board.number)?;
            turns.truncate(sight.turns_shown(turns.len()));
            let game = crate::service::board_mail::replay(&board, &turns, turns.len())?;
            let white = players::by_id(ctx.conn, board.white)?.userid;
            let black = players::by_id(ctx.conn, board.black)?.userid;
            let to_move = if game.state().turn() == shakmaty::Color::White {
                &white
            } else {
                &black
            };
            let keep = match self.filter {
                GamesFilter::All => true,
                GamesFilter::Active => !board.is_finished(),
                GamesFilter::Next => {
                    !board.is_finished() && to_move.eq_ignore_ascii_case(&player.userid)
                }
            };
            if !keep {
                continue;
            }
            // As players count it: `alice: move 14, White to move (turn
            // #27)`, then when the player to move loses on time.
            let position = game.state();
            let due = format!(
                "{to_move}: {}",
                crate::render::move_and_turn(
                    position.turn_number(),
                    position.turn() == shakmaty::Color::White,
                    turns.len() + 1,
                )
            );
            let state = match &board.result {
                Some(result) => format!("finished {result}"),
                // A delayed view hides when the last turn was played, so
                // it shows no deadline.
                None if sight.delayed() => format!(
                    "shown {} behind: {due}",
                    crate::render::count(sight.hidden_turns, "turn")
                ),
                None => match crate::service::board_mail::loses_on_time_at(
                    ctx.conn,
                    &board,
                    position.turn(),
                    ctx.now,
                )? {
                    Some(at) => format!(
                        "{due}, loses on time at {}",
                        crate::render::readable_time(at)
                    ),
                    None => format!("{due}, no clock runs until the challenge is accepted"),
                },
            };
            lines.push(format!(
                "Board {}  {}  {white} (White) - {black} (Black)  {state}",
                board.number,
                board.variant.display_name()
            ));
        }
        if lines.is_empty() {
            lines.push("No boards.".to_string());
        }
        Ok(vec![ctx.notice_to_sender(
            &format!("pbem games {}", player.userid),
            &lines.join("\n"),
        )?])
    }
}
