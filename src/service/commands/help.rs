//! The act of `help`: the command language, the variants, or one
//! variant's rules.

use super::{Act, Asked};
use crate::command::HelpTopic;
use crate::mail::outgoing::Outgoing;
use crate::rules::Variant;
use crate::service::{Failure, MailCtx};
use serde::Serialize;

impl Act for HelpTopic {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let mail = match *self {
            HelpTopic::Commands => {
                let variants = variant_lines();
                #[derive(Serialize)]
                struct HelpView {
                    variants: Vec<VariantLine>,
                }
                let rendered = ctx.templates.render("help.txt", HelpView { variants })?;
                ctx.notice_to_sender(&rendered.subject, &rendered.body)?
            }
            HelpTopic::Variants => {
                let variants = variant_lines();
                // Indented, so that a description wrapped in the mail goes on
                // under its own text (see `wrap_long_lines`).
                let text: Vec<String> = variants
                    .iter()
                    .map(|v| format!("  {}  {}", v.id, v.description))
                    .collect();
                ctx.notice_to_sender("pbem variants", &text.join("\n"))?
            }
            HelpTopic::Variant(variant) => {
                ctx.notice_to_sender(&format!("pbem help {}", variant.id()), variant.help())?
            }
        };
        Ok(vec![mail])
    }
}

#[derive(Serialize)]
struct VariantLine {
    id: &'static str,
    description: &'static str,
}

/// Every variant's id and one-line description, in the order of the list.
fn variant_lines() -> Vec<VariantLine> {
    Variant::ALL
        .iter()
        .map(|v| VariantLine {
            id: v.id(),
            description: v.description(),
        })
        .collect()
}
