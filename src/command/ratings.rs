//! Rating commands: `ratings [<variant>]` (alias `standings`, as pbmserv
//! had) and `rating <userid>`. Both only read; anybody may send them.

use super::{Command, CommandError, error};
use crate::rules::Variant;

pub(super) const RATINGS: &str = "ratings [<variant>]   (or: standings [<variant>])";
pub(super) const RATING: &str = "rating <userid>";

/// `keyword`: `ratings` or `standings`, as written (lowercase).
pub(super) fn ratings(keyword: &str, args: &[&str]) -> Result<Command, CommandError> {
    match args {
        [] => Ok(Command::Ratings { variant: None }),
        [variant] => variant
            .parse::<Variant>()
            .map(|v| Command::Ratings { variant: Some(v) })
            .map_err(|e| error(keyword, &e.to_string(), RATINGS)),
        _ => Err(error(keyword, "give at most one variant", RATINGS)),
    }
}

pub(super) fn rating(args: &[&str]) -> Result<Command, CommandError> {
    match args {
        [userid] => Ok(Command::Rating {
            userid: userid.to_string(),
        }),
        [] => Err(error("rating", "the userid is missing", RATING)),
        _ => Err(error("rating", "give one userid", RATING)),
    }
}

#[cfg(test)]
mod tests {
    use crate::command::{Command, parse_line};
    use crate::rules::Variant;

    fn parse(line: &str) -> Command {
        parse_line(line)
            .expect("a command")
            .expect("well formed")
            .command
    }

    #[test]
    fn ratings_and_rating() {
        assert_eq!(parse("ratings"), Command::Ratings { variant: None });
        assert_eq!(
            parse("Standings chess2"),
            Command::Ratings {
                variant: Some(Variant::Chess2)
            }
        );
        let line = parse_line("chess2 ratings")
            .expect("a command")
            .expect("ok");
        assert_eq!(line.variant, Some(Variant::Chess2));
        assert_eq!(
            parse("rating Alice"),
            Command::Rating {
                userid: "Alice".into()
            }
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
