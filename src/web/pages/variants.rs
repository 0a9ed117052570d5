//! `/variants` and `/variants/<id>`: each variant's rules in the
//! project's own words, the section of docs/rules.md that bears its id,
//! built into the binary, with the common ground every variant shares.
//! The section's paragraphs and list items are shown as text (escaped by
//! the template), its two marks of Markdown as HTML: `*a term*` as
//! emphasis, `` `code` `` as code.

use serde::Serialize;

use super::lists::variant_line;
use super::{Page, Site, WebError, html, value};
use crate::rules::Variant;

/// The rules as the repository states them.
const RULES: &str = include_str!("../../../docs/rules.md");

/// A paragraph, or a list of items.
#[derive(Serialize, Debug, PartialEq, Eq)]
struct Block {
    list: bool,
    lines: Vec<String>,
}

/// A run of one line's text: plain, emphasised (`*term*`) or code.
#[derive(Serialize, Debug, PartialEq, Eq)]
struct Span {
    text: String,
    em: bool,
    code: bool,
}

/// The spans of one line of the rules: `` `code` `` first (a `*` inside
/// it is code), then `*term*` where a `*` opens a word and closes later;
/// any other `*` or a lone backtick is text.
fn spans(line: &str) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut plain = String::new();
    let mut rest = line;
    let flush = |plain: &mut String, out: &mut Vec<Span>| {
        if !plain.is_empty() {
            out.push(Span {
                text: std::mem::take(plain),
                em: false,
                code: false,
            });
        }
    };
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        let closed = match c {
            '`' => after.find('`').map(|end| (end, false)),
            '*' if after.starts_with(|n: char| !n.is_whitespace() && n != '*') => {
                after.find('*').map(|end| (end, true))
            }
            _ => None,
        };
        match closed {
            Some((end, em)) => {
                flush(&mut plain, &mut out);
                out.push(Span {
                    text: after[..end].to_string(),
                    em,
                    code: !em,
                });
                rest = &after[end + 1..];
            }
            None => {
                plain.push(c);
                rest = after;
            }
        }
    }
    flush(&mut plain, &mut out);
    out
}

/// The section of the rules headed `## {heading}`, as blocks; empty if
/// there is none.
fn section(heading: &str) -> Vec<Block> {
    let start = format!("## {heading}\n");
    let Some(at) = RULES.find(&start) else {
        return Vec::new();
    };
    let body = &RULES[at + start.len()..];
    let body = body.find("\n## ").map_or(body, |end| &body[..end]);
    let mut blocks: Vec<Block> = Vec::new();
    let mut open = false;
    for line in body.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            open = false;
            continue;
        }
        let (item, text) = match line.strip_prefix("- ") {
            Some(text) => (true, text),
            None => (false, line.trim_start()),
        };
        let continues = open && !item && line.starts_with("  ");
        match blocks.last_mut() {
            Some(block) if continues || (open && !item && !block.list) => {
                if let Some(last) = block.lines.last_mut() {
                    last.push(' ');
                    last.push_str(text);
                }
            }
            Some(block) if open && item && block.list => block.lines.push(text.to_string()),
            _ => blocks.push(Block {
                list: item,
                lines: vec![text.to_string()],
            }),
        }
        open = true;
    }
    blocks
}

/// A section's blocks with each line cut into its [`spans`].
fn marked(blocks: Vec<Block>) -> Vec<(bool, Vec<Vec<Span>>)> {
    blocks
        .into_iter()
        .map(|b| (b.list, b.lines.iter().map(|l| spans(l)).collect()))
        .collect()
}

/// `/variants`: every variant, linked to its rules.
pub fn variants(site: &Site) -> Result<Page, WebError> {
    let variants: Vec<_> = Variant::ALL.into_iter().map(variant_line).collect();
    html(
        site,
        "variants.html",
        minijinja::context! { variants => value(&variants) },
    )
}

/// `/variants/<id>`: the rules of one variant.
pub fn variant(site: &Site, variant: Variant) -> Result<Page, WebError> {
    html(
        site,
        "variants.html",
        minijinja::context! {
            variant => value(variant_line(variant)),
            rules => value(marked(section(variant.id()))),
            common => value(marked(section("Common ground"))),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_section_of_the_rules() {
        for variant in Variant::ALL {
            assert!(!section(variant.id()).is_empty(), "{variant}");
        }
        let chess2 = section("chess2");
        assert_eq!(
            chess2[0].lines,
            ["Revised Double Move Chess, by Ted Larson Freeman."]
        );
        assert!(chess2[1].list && chess2[1].lines.len() > 3, "{chess2:?}");
        assert!(
            chess2[1].lines[0].ends_with("at the moment it is made."),
            "{chess2:?}"
        );
        assert!(section("no such variant").is_empty());
    }

    #[test]
    fn emphasis_and_code_become_spans_and_stray_marks_stay_text() {
        let span = |text: &str, em, code| Span {
            text: text.into(),
            em,
            code,
        };
        assert_eq!(
            spans("A *move* is `e4`, not `*`; 2 * 3 and a lone ` stay."),
            [
                span("A ", false, false),
                span("move", true, false),
                span(" is ", false, false),
                span("e4", false, true),
                span(", not ", false, false),
                span("*", false, true),
                span("; 2 * 3 and a lone ` stay.", false, false),
            ]
        );
        assert_eq!(spans("*open"), [span("*open", false, false)]);
        assert!(spans("").is_empty());
    }
}
