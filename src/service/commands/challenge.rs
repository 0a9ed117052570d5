//! The act of `challenge`: a new board between the challenger and the
//! opponent, waiting for the opponent's first turn or `accept`.

use super::{Act, Asked};
use crate::command::{Challenge, ColorChoice};
use crate::mail::outgoing::Outgoing;
use crate::rules::Variant;
use crate::schedule;
use crate::service::board_mail::{self, Occasion};
use crate::service::challenges;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::boards::{self, BoardOptions};
use crate::store::deadlines;
use crate::store::players::{self};
use crate::domain::PlayerId;
use crate::command::Speaker;

/// A challenge as this mail made it: the challenger, the variant and the
/// whole command as read (opponent, colour and every option, the time
/// control and the start position included), its password blanked. Two
/// lines alike in all of it are one challenge written twice; comparing the
/// whole value keeps an option added later part of the comparison.
#[derive(Debug, PartialEq, Eq)]
pub(in crate::service) struct Made {
    challenger: PlayerId,
    variant: Variant,
    command: Challenge,
}

impl Act for Challenge {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let variant = asked.variant;
        let challenger = ctx.speaker(&self.speaker, asked.token, None)?;
        let Some(opponent) = players::by_userid(ctx.conn, &self.opponent)? else {
            return Err(refuse(
                format!("there is no player \"{}\" to challenge", self.opponent),
                None,
            ));
        };
        if opponent.id == challenger.id {
            return Err(refuse("you cannot challenge yourself", None));
        }
        let challenger_white = match self.color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => {
                let mut byte = [0u8; 1];
                getrandom::fill(&mut byte).ok();
                byte[0] & 1 == 0
            }
        };
        let (white, black) = if challenger_white {
            (challenger.id, opponent.id)
        } else {
            (opponent.id, challenger.id)
        };
        let (nag_days, forfeit_days) = schedule::turn_deadlines(
            self.days_per_turn,
            self.forfeit_days,
            self.nag_days,
            ctx.config.default_forfeit_days,
            |_| ctx.config.default_nag_days,
        )
        .map_err(|problem| refuse(problem, None))?;
        let control = crate::service::clocks::chosen_control(
            self.time,
            self.remind,
            self.days_per_turn.is_some() || self.forfeit_days.is_some(),
            self.nag_days.is_some(),
            forfeit_days,
        )
        .map_err(|problem| refuse(problem, None))?;
        let variant = variant.unwrap_or(Variant::Chess);
        // Checked before the repeated challenge, so that `--position` on a
        // variant without arrays is refused every time.
        let opening =
            crate::service::starts::chosen_opening(variant, self.position, self.opening.as_ref())?;
        crate::service::starts::chosen_position(variant, self.position)?;
        // Who moves first: White, or after an opening the side to move.
        let first = opening
            .as_ref()
            .and_then(crate::openings::Opening::game)
            .map_or(shakmaty::Color::White, |game| game.state().turn());
        let mut options = BoardOptions {
            rated: self.rated,
            days_per_turn: self.days_per_turn,
            nag_days,
            forfeit_days,
            start_position: self.position,
            opening,
        };
        // The same challenge written again in one mail makes no second
        // board; it is answered as the repeat it is.
        let made = Made {
            challenger: challenger.id,
            variant,
            command: Challenge {
                speaker: Speaker::Token,
                ..self.clone()
            },
        };
        if let Some((_, number)) = ctx.challenges.iter().find(|(earlier, _)| *earlier == made) {
            return Err(refuse(
                format!(
                    "this challenge repeats an earlier line of this mail (board {number}): it makes no second board"
                ),
                Some(*number),
            ));
        }
        challenges::check_bounds(ctx, &challenger, &opponent)?;
        // Drawn only now: a repeated challenge above matches any drawn array.
        options.start_position = crate::service::starts::chosen_position(variant, self.position)?;
        let number = boards::insert(ctx.conn, variant, white, black, options, ctx.now)?;
        if let Some((control, reminders)) = control {
            crate::store::clocks::set_control(ctx.conn, number, control, reminders)?;
        }
        boards::set_challenge(ctx.conn, number, opponent.id, &ctx.mail.message_id)?;
        if self.private {
            crate::store::web::set_private(ctx.conn, number.0)?;
        }
        let to_move = if first == shakmaty::Color::White {
            white
        } else {
            black
        };
        deadlines::set_to_move(ctx.conn, number, to_move)?;
        ctx.challenges.push((made, number));
        Ok(board_mail::board_mails(ctx, number, Occasion::New)?)
    }
}
