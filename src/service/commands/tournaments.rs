//! The act of `tournaments`: the events (and ladders) in a line each, as
//! anybody may see them.

use super::tournament::FINISHED_LISTED;
use super::{Act, Asked};
use crate::command::EventFilter;
use crate::command::tournaments::Tournaments;
use crate::mail::outgoing::Outgoing;
use crate::service::{Failure, MailCtx};
use crate::store::tournaments::{self as store, Status};

impl Act for Tournaments {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let filter = self.filter;

        let live = u32::MAX;
        let statuses: &[(Status, u32)] = match filter {
            EventFilter::All => &[
                (Status::Open, live),
                (Status::Running, live),
                (Status::Finished, FINISHED_LISTED),
            ],
            EventFilter::Open => &[(Status::Open, live)],
            EventFilter::Running => &[(Status::Running, live)],
            EventFilter::Finished => &[(Status::Finished, FINISHED_LISTED)],
        };
        let mut body = String::new();
        let mut more = 0;
        for &(status, limit) in statuses {
            let events = store::list(ctx.conn, status, limit)?;
            for event in &events {
                let s = &event.settings;
                body.push_str(&format!(
                    "  {:<20} {:<9} {:<10} {:<22} {}\n",
                    s.name,
                    event.status.as_str(),
                    s.variant.display_name(),
                    s.format.kind(),
                    crate::render::count(store::entries(ctx.conn, event.id)?.len(), "player")
                ));
            }
            if status == Status::Finished {
                more = store::count(ctx.conn, status)?.saturating_sub(events.len() as u32);
            }
        }
        if filter == EventFilter::All {
            body.push_str(&crate::service::ladders::list_lines(ctx)?);
        }
        if body.is_empty() {
            body = "No events.\n".into();
        }
        if more > 0 {
            body.push_str(&format!(
                "\n{} {} not listed (only the newest {FINISHED_LISTED} are).\n",
                crate::render::count(more, "more finished event"),
                if more == 1 { "is" } else { "are" }
            ));
        }
        Ok(vec![ctx.notice_to_sender("pbem tournaments", &body)?])
    }
}
