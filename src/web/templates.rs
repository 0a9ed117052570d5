//! The web site's templates, rendered with minijinja as the mail templates
//! are: a file in the `web/` folder of the templates directory
//! (`[server] templates`) wins over the copy built into the binary from
//! `templates/web/`, so an operator edits the pages without a rebuild.
//! Values are escaped for HTML (`.html`) and XML (`.xml`, the feeds).

use std::path::{Path, PathBuf};

use minijinja::Environment;
use serde::Serialize;

/// The templates built into the binary.
const BUILT_IN: &[(&str, &str)] = &[
    (
        "layout.html",
        include_str!("../../templates/web/layout.html"),
    ),
    ("index.html", include_str!("../../templates/web/index.html")),
    ("board.html", include_str!("../../templates/web/board.html")),
    (
        "events.html",
        include_str!("../../templates/web/events.html"),
    ),
    ("event.html", include_str!("../../templates/web/event.html")),
    (
        "ladder.html",
        include_str!("../../templates/web/ladder.html"),
    ),
    (
        "ratings.html",
        include_str!("../../templates/web/ratings.html"),
    ),
    (
        "player.html",
        include_str!("../../templates/web/player.html"),
    ),
    ("error.html", include_str!("../../templates/web/error.html")),
    ("pager.html", include_str!("../../templates/web/pager.html")),
    (
        "variants.html",
        include_str!("../../templates/web/variants.html"),
    ),
    (
        "players.html",
        include_str!("../../templates/web/players.html"),
    ),
    (
        "ladders.html",
        include_str!("../../templates/web/ladders.html"),
    ),
    (
        "board.atom.xml",
        include_str!("../../templates/web/board.atom.xml"),
    ),
    (
        "event.atom.xml",
        include_str!("../../templates/web/event.atom.xml"),
    ),
];

/// The page templates.
pub struct Pages {
    env: Environment<'static>,
}

impl Pages {
    /// Templates from `dir/web/` where present, built-in ones otherwise.
    pub fn new(dir: Option<&Path>) -> Pages {
        let dir: Option<PathBuf> = dir.map(|dir| dir.join("web"));
        let mut env = Environment::new();
        env.add_filter("count", crate::render::templates::count_filter);
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
        Pages { env }
    }

    /// Renders the template `name` with `context`.
    pub fn render(&self, name: &str, context: impl Serialize) -> Result<String, String> {
        self.env
            .get_template(name)
            .and_then(|template| template.render(minijinja::value::Serde(context)))
            .map_err(|e| format!("template web/{name}: {e:#}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_template_compiles() {
        let pages = Pages::new(None);
        for (name, _) in BUILT_IN {
            pages
                .env
                .get_template(name)
                .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        }
    }

    #[test]
    fn a_template_in_the_web_folder_wins_and_values_are_escaped() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("web")).expect("web folder");
        std::fs::write(dir.path().join("web/error.html"), "custom {{ message }}").expect("write");
        let custom = Pages::new(Some(dir.path()))
            .render("error.html", minijinja::context! { message => "<b>" })
            .expect("renders");
        assert_eq!(custom, "custom &lt;b&gt;");
    }
}
