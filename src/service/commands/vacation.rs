//! The act of `vacation`: the speaker's clocks stop for some days.

use super::{Act, Asked};
use crate::command::Vacation;
use crate::mail::outgoing::Outgoing;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::players::{self};
use crate::store::{boards, deadlines};
use time::Duration;

impl Act for Vacation {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let command = self;
        let token = asked.token;

        let player = ctx.speaker(&command.speaker, token, None)?;
        let year = ctx.now.year();
        let used = if player.vacation_year == year {
            player.vacation_days_used
        } else {
            0
        };
        let allowance = ctx.config.vacation_days_per_year;
        let left = allowance.saturating_sub(used);
        // Checked: the days come from the mail and may be anything up to u32::MAX.
        let total = used
            .checked_add(command.days)
            .filter(|total| command.days > 0 && *total <= allowance);
        let until = Duration::days(i64::from(command.days));
        let (Some(total), Some(until)) = (total, ctx.now.checked_add(until)) else {
            return Err(refuse(
                format!(
                    "you have {left} vacation days left this year (of {allowance}); ask for 1 to {left} days"
                ),
                None,
            ));
        };
        players::set_vacation(ctx.conn, player.id, until, total, year)?;
        deadlines::add_vacation(
            ctx.conn,
            player.id,
            deadlines::Vacation {
                starts_at: ctx.now,
                ends_at: until,
            },
        )?;
        let text = format!(
            "{} is on vacation for {} days, until {}; the clocks of their boards stop meanwhile.",
            player.userid,
            command.days,
            crate::render::readable_time(until)
        );
        let mut mails = vec![ctx.notice_to_sender("pbem vacation", &text)?];
        for board in boards::of_player(ctx.conn, player.id)?
            .iter()
            .filter(|b| !b.is_finished())
        {
            let opponent = if board.white == player.id {
                board.black
            } else {
                board.white
            };
            let opponent = players::by_id(ctx.conn, opponent)?;
            let subject = format!(
                "{} Board {} vacation",
                board.variant.display_name(),
                board.number
            );
            mails.push(ctx.notice(vec![opponent.mail_address().to_string()], &subject, &text)?);
        }
        Ok(mails)
    }
}
