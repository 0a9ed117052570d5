//! The act of `password`: a new password for the speaker.

use super::{Act, Asked};
use crate::command::Password;
use crate::mail::outgoing::Outgoing;
use crate::service::account::{account_notice_recipients, check_new_password};
use crate::service::{Failure, MailCtx, refuse};
use crate::store::players::{self};

impl Act for Password {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let player = ctx.speaker(&self.speaker, asked.token, None)?;
        check_new_password(ctx, &self.new)?;
        let hash = ctx
            .passwords
            .new_hash(&self.new)
            .map_err(|e| refuse(format!("cannot store the password: {e}"), None))?;
        players::set_password_hash(ctx.conn, player.id, &hash)?;
        let text = format!(
            "The password of {} was changed by a mail from {}. If that was not you, change it back at once with: password {} <new password> <another password>",
            player.userid, ctx.sender, player.userid
        );
        Ok(vec![ctx.notice(
            account_notice_recipients(ctx, &player),
            "pbem password changed",
            &text,
        )?])
    }
}
