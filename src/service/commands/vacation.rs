//! The act of `vacation`: the speaker's clocks stop for some days.

use super::{Act, Asked};
use crate::command::Vacation;
use crate::mail::outgoing::Outgoing;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::players::{self, PlayerId};
use crate::store::boards::{self, Board};
use crate::store::deadlines;
use std::collections::BTreeMap;
use time::Duration;

impl Act for Vacation {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let player = ctx.speaker(&self.speaker, asked.token, None)?;
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
            .checked_add(self.days)
            .filter(|total| self.days > 0 && *total <= allowance);
        let until = Duration::days(i64::from(self.days));
        let (Some(total), Some(until)) = (total, ctx.now.checked_add(until)) else {
            return Err(refuse(
                format!(
                    "you have {} left this year (of {allowance}); ask for 1 to {left} {}",
                    crate::render::count(left, "vacation day"),
                    crate::render::noun(left, "day")
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
            "{} is on vacation for {}, until {}; the clocks of their boards stop meanwhile.",
            player.userid,
            crate::render::count(self.days, "day"),
            crate::render::readable_time(until)
        );
        let mut mails = vec![ctx.notice_to_sender("pbem vacation", &text)?];
        // One notice per opponent of an accepted running game, naming
        // every board the two share: a challenge nobody accepted yet is no
        // game of the challenged player's, and a finished one has no clock.
        let mut shared: BTreeMap<PlayerId, Vec<Board>> = BTreeMap::new();
        for board in boards::accepted_running(ctx.conn, player.id)? {
            let opponent = if board.white == player.id {
                board.black
            } else {
                board.white
            };
            shared.entry(opponent).or_default().push(board);
        }
        for (opponent, boards) in shared {
            let opponent = players::by_id(ctx.conn, opponent)?;
            let named: Vec<String> = boards
                .iter()
                .map(|b| format!("Board {} ({})", b.number, b.variant.display_name()))
                .collect();
            // With one board the subject names it, so the notice threads
            // with that board's mails.
            let subject = match boards.as_slice() {
                [board] => format!(
                    "{} Board {} vacation",
                    board.variant.display_name(),
                    board.number
                ),
                _ => format!("pbem vacation of {}", player.userid),
            };
            let text = format!(
                "{text}\n\nYour games with {}: {}.",
                player.userid,
                named.join(", ")
            );
            mails.push(ctx.notice(vec![opponent.mail_address().to_string()], &subject, &text)?);
        }
        Ok(mails)
    }
}
