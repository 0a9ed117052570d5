//! `ratings [<variant>]` (alias `standings`, as pbmserv had): the
//! standings. Anybody may send it.

use super::{CommandError, Definition, Form, InReply, MailCommand, error};
use crate::rules::Variant;

/// `ratings [<variant>]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ratings {
    pub variant: Option<Variant>,
}

const USAGE: &str = "ratings [<variant>]   (or: standings [<variant>])";

impl MailCommand for Ratings {
    const DEFINITION: Definition = Definition {
        words: &["ratings", "standings"],
        forms: &[Form::new(USAGE, &[], "ratings chess2")],
        in_reply: InReply::Full,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    /// `keyword` is `ratings` or `standings`, as written: errors say it so.
    fn parse(keyword: &str, args: &[&str]) -> Result<Ratings, CommandError> {
        match args {
            [] => Ok(Ratings { variant: None }),
            [variant] => variant
                .parse::<Variant>()
                .map(|v| Ratings { variant: Some(v) })
                .map_err(|e| error(keyword, &e.to_string(), USAGE)),
            _ => Err(error(keyword, "give at most one variant", USAGE)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::command::rating::Rating;
    use crate::command::{Command, parse_line};
    use crate::rules::Variant;

    use super::*;

    fn parse(line: &str) -> Command {
        parse_line(line)
            .expect("a command")
            .expect("well formed")
            .command
    }

    #[test]
    fn ratings_and_rating() {
        assert_eq!(
            parse("ratings"),
            Command::Ratings(Ratings { variant: None })
        );
        assert_eq!(
            parse("Standings chess2"),
            Command::Ratings(Ratings {
                variant: Some(Variant::Chess2)
            })
        );
        let line = parse_line("chess2 ratings")
            .expect("a command")
            .expect("ok");
        assert_eq!(line.variant, Some(Variant::Chess2));
        assert_eq!(
            parse("rating Alice"),
            Command::Rating(Rating {
                userid: "Alice".into()
            })
        );
        let error = parse_line("ratings nosuch")
            .expect("a command")
            .unwrap_err();
        assert!(error.to_string().contains("nosuch"), "{error}");
        assert!(
            parse_line("ratings chess chess2")
                .expect("a command")
                .is_err()
        );
        assert!(parse_line("rating").expect("a command").is_err());
        assert!(parse_line("rating a b").expect("a command").is_err());
    }
}
