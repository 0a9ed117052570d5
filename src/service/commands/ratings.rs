//! The act of `ratings` (`standings`): the standings of a variant, or of
//! every variant.

use super::{Act, Asked};
use crate::command::ratings::Ratings;
use crate::mail::outgoing::Outgoing;
use crate::ratings::START;
use crate::service::ratings::{STANDINGS_ROWS, to_sender};
use crate::service::{Failure, MailCtx};
use crate::store::ratings;
use serde::Serialize;

/// `ratings [<variant>]`: the standings of one variant, or of every
/// variant with ratings, each in sections Established, Provisional and
/// Inactive.
impl Act for Ratings {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let variant = self.variant.or(asked.variant);

        let variants = match variant {
            Some(variant) => vec![variant],
            None => ratings::variants(ctx.conn)?,
        };
        let mut tables = Vec::new();
        for variant in &variants {
            let sections =
                crate::reader::variant_sections(ctx.conn, *variant, ctx.now, STANDINGS_ROWS)?
                    .into_iter()
                    .map(|(title, table)| SectionView { title, table })
                    .collect();
            tables.push(TableView {
                title: format!("{} ratings", variant.display_name()),
                sections,
            });
        }
        if tables.is_empty() {
            tables.push(TableView {
                title: "No rated games yet.".to_string(),
                sections: Vec::new(),
            });
        }
        let subject = match variant {
            Some(variant) => format!("pbem ratings {}", variant.id()),
            None => "pbem ratings".to_string(),
        };
        #[derive(Serialize)]
        struct View {
            subject: String,
            tables: Vec<TableView>,
            start: i32,
            start_deviation: u32,
        }
        let rendered = ctx.templates.render(
            "ratings.txt",
            View {
                subject,
                tables,
                start: START.shown(),
                start_deviation: START.shown_deviation(),
            },
        )?;
        Ok(vec![to_sender(ctx, rendered)])
    }
}

#[derive(Serialize)]
struct SectionView {
    title: String,
    table: String,
}

#[derive(Serialize)]
struct TableView {
    title: String,
    sections: Vec<SectionView>,
}
