//! Mail templates, rendered with minijinja at run time. Operators may edit
//! the files in the templates directory without a rebuild; a template missing
//! there falls back to the copy built into the binary from `templates/`.
//!
//! Each template renders a whole mail: the first line is `Subject: ...`,
//! then a blank line, then the body.

use std::path::{Path, PathBuf};

use minijinja::Environment;
use serde::Serialize;

/// The templates built into the binary.
const BUILT_IN: &[(&str, &str)] = &[
    ("board.txt", include_str!("../../templates/board.txt")),
    ("error.txt", include_str!("../../templates/error.txt")),
    ("notice.txt", include_str!("../../templates/notice.txt")),
    ("help.txt", include_str!("../../templates/help.txt")),
    ("ratings.txt", include_str!("../../templates/ratings.txt")),
    ("rating.txt", include_str!("../../templates/rating.txt")),
    ("start.txt", include_str!("../../templates/start.txt")),
    ("board.html", include_str!("../../templates/board.html")),
    ("answer.html", include_str!("../../templates/answer.html")),
];

/// A template that could not be rendered.
#[derive(Debug, thiserror::Error)]
#[error("template {name}: {message}")]
pub struct TemplateError {
    pub name: String,
    pub message: String,
}

/// The template set.
pub struct Templates {
    env: Environment<'static>,
}

/// A rendered mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub body: String,
}

/// The `count` filter of the mail and web templates:
/// `{{ n | count("day") }}` is `1 day` or `2 days`, and irregular nouns give
/// their plural (`count("match", "matches")`), as [`super::count`] writes
/// them in code.
pub fn count_filter(n: minijinja::Value, singular: String, plural: Option<String>) -> String {
    let n = n.to_string();
    match plural {
        Some(plural) => super::count_as(n, &singular, &plural),
        None => super::count(n, &singular),
    }
}

impl Templates {
    /// Templates from `dir` where present, built-in ones otherwise.
    pub fn new(dir: Option<&Path>) -> Templates {
        let dir: Option<PathBuf> = dir.map(Path::to_path_buf);
        let mut env = Environment::new();
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .keep_trailing_newline(true)
                .build()
                .expect("the default delimiters are valid"),
        );
        // `{{ n | count("day") }}`: `1 day`, `2 days` (irregular nouns give
        // their plural: `count("match", "matches")`), as `render::count`
        // writes them in code.
        env.add_filter("count", count_filter);
        env.set_loader(move |name| {
            if let Some(dir) = &dir {
                let path = dir.join(name);
                if path.is_file() {
                    return std::fs::read_to_string(&path).map(Some).map_err(|e| {
                        minijinja::Error::new(
                            minijinja::ErrorKind::TemplateNotFound,
                            format!("cannot read {}: {e}", path.display()),
                        )
                    });
                }
            }
            Ok(BUILT_IN
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, text)| text.to_string()))
        });
        Templates { env }
    }

    /// Renders the template `name` with `context`.
    pub fn render(&self, name: &str, context: impl Serialize) -> Result<Rendered, TemplateError> {
        let error = |e: minijinja::Error| TemplateError {
            name: name.to_string(),
            message: e.to_string(),
        };
        let text = self
            .env
            .get_template(name)
            .map_err(error)?
            .render(minijinja::value::Serde(context))
            .map_err(error)?;
        let (head, body) = text.split_once("\n\n").unwrap_or((text.as_str(), ""));
        let subject = head
            .strip_prefix("Subject:")
            .ok_or_else(|| TemplateError {
                name: name.to_string(),
                message: "the first line must be \"Subject: ...\"".to_string(),
            })?
            .trim()
            .to_string();
        Ok(Rendered {
            subject,
            body: wrap_long_lines(body, MAX_LINE),
        })
    }
}

impl Templates {
    /// Renders the HTML template `name` (a whole HTML part, no Subject
    /// line); values are HTML-escaped.
    pub fn render_html(
        &self,
        name: &str,
        context: impl Serialize,
    ) -> Result<String, TemplateError> {
        let error = |e: minijinja::Error| TemplateError {
            name: name.to_string(),
            message: e.to_string(),
        };
        self.env
            .get_template(name)
            .map_err(error)?
            .render(minijinja::value::Serde(context))
            .map_err(error)
    }
}

/// Longest body line: mail stays plain 8bit text (RFC 5322 recommends 78).
pub const MAX_LINE: usize = 76;

/// Breaks lines longer than `width` at spaces. A paragraph goes on flush
/// left, as the hand-wrapped paragraphs of every template do; an indented
/// line (an item of a list) goes on under its own text, two spaces in; a
/// quoted line (`> `) goes on quoted.
pub fn wrap_long_lines(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (content, newline) = match line.strip_suffix('\n') {
            Some(content) => (content, "\n"),
            None => (line, ""),
        };
        if content.chars().count() <= width {
            out.push_str(line);
            continue;
        }
        let indent: String = content.chars().take_while(|c| *c == ' ').collect();
        let continuation = continuation_of(content, &indent);
        let mut column = 0;
        for (i, word) in content.trim_start().split(' ').enumerate() {
            let length = word.chars().count();
            if i == 0 {
                out.push_str(&indent);
                column = indent.len();
            } else if column + 1 + length > width {
                out.push('\n');
                out.push_str(&continuation);
                column = continuation.len();
            } else {
                out.push(' ');
                column += 1;
            }
            out.push_str(word);
            column += length;
        }
        out.push_str(newline);
    }
    out
}

/// What a wrapped line's continuations begin with (see [`wrap_long_lines`]).
fn continuation_of(line: &str, indent: &str) -> String {
    let quote: String = line
        .chars()
        .take_while(|c| *c == '>' || *c == ' ')
        .collect();
    if quote.contains('>') {
        quote
    } else if indent.is_empty() {
        String::new()
    } else {
        format!("{indent}  ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paragraph_goes_on_flush_left_and_a_quote_stays_quoted() {
        let text = format!(
            "{}\n> {}\n",
            "word ".repeat(30).trim_end(),
            "quoted ".repeat(10).trim_end()
        );
        let wrapped = wrap_long_lines(&text, 20);
        let lines: Vec<&str> = wrapped.lines().collect();
        assert!(lines.iter().all(|line| line.len() <= 20), "{wrapped}");
        let (paragraph, quote): (Vec<&str>, Vec<&str>) =
            lines.iter().partition(|line| line.starts_with("word"));
        assert!(paragraph.len() > 1 && quote.len() > 1, "{wrapped}");
        assert!(
            quote.iter().all(|line| line.starts_with("> quoted")),
            "{wrapped}"
        );
        assert_eq!(
            wrapped.split_whitespace().filter(|w| *w == "word").count(),
            30
        );
        assert_eq!(
            wrapped
                .split_whitespace()
                .filter(|w| *w == "quoted")
                .count(),
            10
        );
    }

    #[test]
    fn long_lines_wrap_at_spaces_with_indentation() {
        let text = format!("short\n  {}\n", "word ".repeat(30).trim_end());
        let wrapped = wrap_long_lines(&text, 20);
        assert!(wrapped.lines().all(|line| line.len() <= 20), "{wrapped}");
        assert!(
            wrapped.lines().skip(2).all(|line| line.starts_with("    ")),
            "{wrapped}"
        );
        assert_eq!(wrapped.split_whitespace().count(), 31);
    }

    #[test]
    fn the_count_filter_agrees_with_0_1_and_2() {
        let dir = tempfile::tempdir().expect("a directory");
        std::fs::write(
            dir.path().join("counted.txt"),
            "Subject: x\n\n{{ n | count(\"day\") }}, {{ n | count(\"match\", \"matches\") }}",
        )
        .expect("written");
        let templates = Templates::new(Some(dir.path()));
        let said = |n: u32| {
            templates
                .render("counted.txt", minijinja::context! { n => n })
                .expect("renders")
                .body
        };
        assert_eq!(said(0), "0 days, 0 matches");
        assert_eq!(said(1), "1 day, 1 match");
        assert_eq!(said(2), "2 days, 2 matches");
    }

    #[test]
    fn a_template_in_the_directory_wins_over_the_built_in_one() {
        let dir = std::env::temp_dir().join(format!("pbem-templates-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(
            dir.join("notice.txt"),
            "Subject: custom {{ subject }}\n\nbody {{ text }}\n",
        )
        .expect("write");
        let custom = Templates::new(Some(&dir))
            .render(
                "notice.txt",
                minijinja::context! { subject => "s", text => "t" },
            )
            .expect("renders");
        assert_eq!(
            custom,
            Rendered {
                subject: "custom s".into(),
                body: "body t\n".into()
            }
        );
        let built_in = Templates::new(None)
            .render(
                "notice.txt",
                minijinja::context! { subject => "s", text => "t" },
            )
            .expect("renders");
        assert_eq!(built_in.subject, "s");
        std::fs::remove_dir_all(&dir).ok();
    }
}
