//! `challenge <userid> <password> <opponent> [options]`, or `challenge
//! <opponent> [options]` in a reply to a mail of pbem's: a new board, which
//! waits for the opponent's first turn or `accept`.

use pbem_clock::{Reminders, TimeControl};

use super::options::{opening, position, reminders, time_control};
use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, credentials, error};

/// Which colour the challenger takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// `challenge <userid> <password> <opponent> [--white|--black|--random]
/// [--time=CONTROL] [--remind=WHEN] [--days=N] [--nag=N] [--forfeit=N]
/// [--unrated] [--private] [--position=N] [--opening=ECO|NAME]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub speaker: Speaker,
    pub opponent: String,
    pub color: ColorChoice,
    /// `--time=`: the game's time control (`3`, `10/50`, `30+1/45`).
    pub time: Option<TimeControl>,
    /// `--remind=`: when the player to move is reminded (`25%,1`).
    pub remind: Option<Reminders>,
    pub days_per_turn: Option<u32>,
    pub nag_days: Option<u32>,
    pub forfeit_days: Option<u32>,
    pub rated: bool,
    /// `--private`: the game is on no page or feed of the web site.
    pub private: bool,
    /// `--position=N`: the Chess960 starting array (0 to 959).
    pub position: Option<u32>,
    /// `--opening=<ECO code or name>`: a thematic start (chess only).
    pub opening: Option<crate::openings::Opening>,
}

const USAGE: &str = "challenge <userid> <password> <opponent> [--white|--black|--random] [--time=D|N/D|B+I/C] [--remind=25%,1] [--days=N] [--nag=N] [--forfeit=N] [--unrated] [--private] [--position=N] [--opening=ECO|NAME] (in a reply to a mail of pbem's, without userid and password: challenge <opponent> [options])";

impl MailCommand for Challenge {
    const DEFINITION: Definition = Definition {
        words: &["challenge"],
        forms: &[
            Form::new(USAGE, &[2], "challenge alice alice-pw bob --white --days=3"),
            Form::new(USAGE, &[], "challenge bob --white"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        fixed: &[
            "--white",
            "--black",
            "--random",
            "--unrated",
            "--days=",
            "--nag=",
            "--forfeit=",
            "--time=",
            "--remind=",
            "--private",
            "--position=",
            "--opening=",
        ],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Challenge, CommandError> {
        // The forms differ in the words before the options: the opponent
        // alone (in a reply), or userid, password and opponent. A third word
        // that is no option makes the full form, even with a password that
        // looks like one (`--secret`).
        let is_option = |word: Option<&&str>| word.is_none_or(|w| w.starts_with("--"));
        let (speaker, rest) = if is_option(args.get(2)) && is_option(args.get(1)) {
            (Speaker::Token, args)
        } else {
            let (userid, password, rest) = credentials(args, keyword, USAGE)?;
            (Speaker::Password { userid, password }, rest)
        };
        let Some((opponent, options)) = rest.split_first() else {
            return Err(error(keyword, "the opponent's userid is missing", USAGE));
        };
        if opponent.starts_with("--") {
            return Err(error(keyword, "the opponent's userid is missing", USAGE));
        }
        let mut challenge = Challenge {
            speaker,
            opponent: opponent.to_string(),
            color: ColorChoice::Random,
            time: None,
            remind: None,
            days_per_turn: None,
            nag_days: None,
            forfeit_days: None,
            rated: true,
            private: false,
            position: None,
            opening: None,
        };
        for option in options {
            let lower = option.to_ascii_lowercase();
            let (name, value) = match lower.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (lower.as_str(), None),
            };
            let days = || -> Result<u32, CommandError> {
                let value = value.ok_or_else(|| {
                    error(keyword, &format!("{name} needs a number: {name}=N"), USAGE)
                })?;
                value
                    .parse()
                    .ok()
                    .filter(|days| (1..=365).contains(days))
                    .ok_or_else(|| {
                        error(
                            keyword,
                            &format!("{name}={value}: give a number of days from 1 to 365"),
                            USAGE,
                        )
                    })
            };
            match name {
                "--white" => challenge.color = ColorChoice::White,
                "--black" => challenge.color = ColorChoice::Black,
                "--random" => challenge.color = ColorChoice::Random,
                "--unrated" => challenge.rated = false,
                "--private" => challenge.private = true,
                "--days" => challenge.days_per_turn = Some(days()?),
                "--nag" => challenge.nag_days = Some(days()?),
                "--forfeit" => challenge.forfeit_days = Some(days()?),
                "--time" => challenge.time = Some(time_control(keyword, value, USAGE)?),
                "--remind" => challenge.remind = Some(reminders(keyword, value, USAGE)?),
                "--position" => challenge.position = Some(position(keyword, value, USAGE)?),
                "--opening" => challenge.opening = Some(opening(keyword, value, USAGE)?),
                _ => {
                    return Err(error(
                        keyword,
                        &format!("unknown option \"{option}\""),
                        USAGE,
                    ));
                }
            }
        }
        Ok(challenge)
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_is_a_challenge_option() {
        let private = |line: &str| match Challenge::parse(
            "challenge",
            &line.split_whitespace().collect::<Vec<_>>(),
        ) {
            Ok(c) => c.private,
            other => panic!("{other:?}"),
        };
        assert!(private("alice pw bob --private --white"));
        assert!(private("bob --PRIVATE"));
        assert!(!private("alice pw bob --white"));
    }
}
