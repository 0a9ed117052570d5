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
            let state = match &board.result {
                Some(result) => format!("finished {result}"),
                None if sight.delayed() => format!(
                    "shown {} turns behind: {to_move} to move, turn #{}",
                    sight.hidden_turns,
                    turns.len() + 1
                ),
                None => format!("{to_move} to move, turn #{}", turns.len() + 1),
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
