//! `ladder create|join|leave|challenge|show`: ladders, where a player
//! challenges those a few places above. In a reply to a mail pbem sent a player, those that log in
//! may leave out the userid and password (`ladder join top`): the reply
//! token speaks for the player ([`Speaker::Token`]).

use pbem_clock::TimeControl;

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, error};

/// `ladder create <userid> <password> <name> <variant> [options]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateLadder {
    pub speaker: Speaker,
    pub name: String,
    pub variant: String,
    /// `--reach=N`: places above oneself a player may challenge.
    pub reach: Option<u32>,
    /// `--open=M`: open ladder games a player may have.
    pub max_open: Option<u32>,
    /// `--days=N`: days each turn may take.
    pub days_per_turn: Option<u32>,
    /// `--time=...`: the games' time control.
    pub time: Option<TimeControl>,
}

/// A `ladder ...` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ladder {
    Create(CreateLadder),
    Join {
        name: String,
        speaker: Speaker,
    },
    Leave {
        name: String,
        speaker: Speaker,
    },
    /// A challenge on the ladder: the game starts at once.
    Challenge {
        name: String,
        speaker: Speaker,
        opponent: String,
    },
    Show {
        name: String,
    },
}

impl Ladder {
    pub fn speaker(&self) -> Option<&Speaker> {
        match self {
            Ladder::Create(c) => Some(&c.speaker),
            Ladder::Join { speaker, .. }
            | Ladder::Leave { speaker, .. }
            | Ladder::Challenge { speaker, .. } => Some(speaker),
            Ladder::Show { .. } => None,
        }
    }
}

const CREATE: &str = "ladder create <userid> <password> <name> <variant> [--reach=N] [--open=M] [--time=D|N/D|B+I/C | --days=N] (in a reply to a mail of pbem's, without userid and password)";
const JOIN: &str = "ladder join|leave <name> <userid> <password>";
const CHALLENGE: &str = "ladder challenge <name> <userid> <password> <opponent>";
const SHOW: &str = "ladder show <name>";
const LADDER: &str = "ladder create|join|leave|challenge|show ... (send \"help\" for the forms)";

/// The longest ladder name.
pub const MAX_LADDER_NAME: usize = 32;

impl MailCommand for Ladder {
    const DEFINITION: Definition = Definition {
        words: &["ladder"],
        forms: &[
            Form::of_sub(
                CREATE,
                &["create"],
                &[3],
                "ladder create owner owner-pw top chess --reach=3 --open=2 --days=3",
            ),
            Form::of_sub(
                JOIN,
                &["join", "leave"],
                &[4],
                "ladder join top alice alice-pw",
            ),
            Form::of_sub(
                CHALLENGE,
                &["challenge"],
                &[4],
                "ladder challenge top alice alice-pw bob",
            ),
            Form::of_sub(SHOW, &["show"], &[], "ladder show top"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        fixed: &[
            "create",
            "join",
            "leave",
            "challenge",
            "show",
            "--reach=",
            "--open=",
            "--time=",
            "--days=",
        ],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Ladder, CommandError> {
        parse(keyword, args)
    }

    fn speaker(&self) -> Option<&Speaker> {
        self.speaker()
    }
}

fn parse(keyword: &str, args: &[&str]) -> Result<Ladder, CommandError> {
    let Some((sub, rest)) = args.split_first() else {
        return Err(error(keyword, "say what to do", LADDER));
    };
    let sub = sub.to_ascii_lowercase();
    let command = match sub.as_str() {
        "create" => Ladder::Create(parse_create(rest)?),
        "join" | "leave" => {
            let name = ladder_name(rest.first(), JOIN)?;
            let speaker = match &rest[1..] {
                [] => Speaker::Token,
                [_] => return Err(error("ladder", "the password is missing", JOIN)),
                [userid, password] => Speaker::Password {
                    userid: userid.to_string(),
                    password: password.to_string(),
                },
                [_, _, more @ ..] => return Err(unexpected(more, JOIN)),
            };
            if sub == "join" {
                Ladder::Join { name, speaker }
            } else {
                Ladder::Leave { name, speaker }
            }
        }
        "challenge" => {
            let name = ladder_name(rest.first(), CHALLENGE)?;
            // `<opponent>` in a reply, `<userid> <password> <opponent>`
            // otherwise.
            let (speaker, opponent) = match &rest[1..] {
                [] => return Err(error("ladder", "name the player to challenge", CHALLENGE)),
                [opponent] => (Speaker::Token, opponent),
                [_, _] => return Err(error("ladder", "name the player to challenge", CHALLENGE)),
                [userid, password, opponent] => (
                    Speaker::Password {
                        userid: userid.to_string(),
                        password: password.to_string(),
                    },
                    opponent,
                ),
                [_, _, _, more @ ..] => return Err(unexpected(more, CHALLENGE)),
            };
            Ladder::Challenge {
                name,
                speaker,
                opponent: opponent.to_string(),
            }
        }
        "show" => {
            let name = ladder_name(rest.first(), SHOW)?;
            if rest.len() > 1 {
                return Err(unexpected(&rest[1..], SHOW));
            }
            Ladder::Show { name }
        }
        other => {
            return Err(error(
                "ladder",
                &format!("\"{other}\" is not a ladder command"),
                LADDER,
            ));
        }
    };
    Ok(command)
}

fn unexpected(words: &[&str], usage: &'static str) -> CommandError {
    error(
        "ladder",
        &format!("unexpected words: \"{}\"", words.join(" ")),
        usage,
    )
}

/// A ladder name: see [`super::name_word`].
fn ladder_name(word: Option<&&str>, usage: &'static str) -> Result<String, CommandError> {
    super::name_word(word, "ladder", "ladder", MAX_LADDER_NAME, usage)
}

fn parse_create(args: &[&str]) -> Result<CreateLadder, CommandError> {
    // `<name> <variant> [options]` in a reply: two words before the
    // options, where the other form has four.
    let names = args.iter().take_while(|w| !w.starts_with("--")).count();
    let (speaker, rest) = match (names, args) {
        (2, _) => (Speaker::Token, args),
        (_, [userid, password, rest @ ..]) => (
            Speaker::Password {
                userid: userid.to_string(),
                password: password.to_string(),
            },
            rest,
        ),
        (_, [_]) => return Err(error("ladder", "the password is missing", CREATE)),
        (_, []) => {
            return Err(error(
                "ladder",
                "the userid and password are missing",
                CREATE,
            ));
        }
    };
    let name = ladder_name(rest.first(), CREATE)?;
    let Some(variant) = rest.get(1).filter(|w| !w.starts_with("--")) else {
        return Err(error("ladder", "the variant is missing", CREATE));
    };
    let mut create = CreateLadder {
        speaker,
        name,
        variant: variant.to_string(),
        reach: None,
        max_open: None,
        days_per_turn: None,
        time: None,
    };
    for option in &rest[2..] {
        let (name, value) = match option.split_once('=') {
            Some((name, value)) => (name.to_ascii_lowercase(), Some(value)),
            None => (option.to_ascii_lowercase(), None),
        };
        let number = |low: u32, high: u32, what: &str| -> Result<u32, CommandError> {
            let value = value.ok_or_else(|| {
                error(
                    "ladder",
                    &format!("{name} needs a number: {name}=N"),
                    CREATE,
                )
            })?;
            value
                .parse()
                .ok()
                .filter(|n| (low..=high).contains(n))
                .ok_or_else(|| {
                    error(
                        "ladder",
                        &format!("{name}={value}: give {what} from {low} to {high}"),
                        CREATE,
                    )
                })
        };
        match name.as_str() {
            "--reach" => {
                create.reach = Some(number(
                    1,
                    crate::tournament::ladder::MAX_REACH,
                    "a number of places",
                )?)
            }
            "--open" => {
                create.max_open = Some(number(
                    1,
                    crate::tournament::ladder::MAX_OPEN,
                    "a number of games",
                )?)
            }
            "--days" => create.days_per_turn = Some(number(1, 365, "a number of days")?),
            "--time" => {
                let control: TimeControl =
                    value
                        .unwrap_or_default()
                        .parse()
                        .map_err(|e: pbem_clock::ParseError| {
                            error("ladder", &format!("--time: {e}"), CREATE)
                        })?;
                create.time = Some(control);
            }
            _ => {
                return Err(error(
                    "ladder",
                    &format!("unknown option \"{option}\""),
                    CREATE,
                ));
            }
        }
    }
    if create.time.is_some() && create.days_per_turn.is_some() {
        return Err(error(
            "ladder",
            "give --time or --days, not both: they both set the time for a turn",
            CREATE,
        ));
    }
    Ok(create)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{Command, parse_line};

    fn parsed(line: &str) -> Result<Ladder, CommandError> {
        match parse_line(line).expect("a command line")?.command {
            Command::Ladder(l) => Ok(l),
            other => panic!("not a ladder command: {other:?}"),
        }
    }

    #[test]
    fn create_reads_its_options() {
        let Ladder::Create(c) =
            parsed("ladder create owner pw Top-Chess chess --reach=4 --open=3 --time=10/50")
                .unwrap()
        else {
            panic!("create");
        };
        assert_eq!(c.name, "top-chess");
        assert_eq!((c.reach, c.max_open), (Some(4), Some(3)));
        assert_eq!(c.time.map(|t| t.to_string()), Some("10/50".to_string()));
        let Ladder::Create(c) = parsed("ladder create top chess --days=5").unwrap() else {
            panic!("create");
        };
        assert_eq!((c.speaker, c.days_per_turn), (Speaker::Token, Some(5)));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let problem = |line: &str| parsed(line).unwrap_err().problem;
        assert!(problem("ladder create o pw 9top chess").contains("not a ladder name"));
        assert!(problem("ladder create o pw top chess --reach=0").contains("--reach"));
        assert!(problem("ladder create o pw top chess --reach=99999999999").contains("--reach"));
        assert!(problem("ladder create o pw top chess --open=11").contains("--open"));
        assert!(problem("ladder create o pw top chess --time=x").contains("--time"));
        assert!(problem("ladder create o pw top chess --time=3 --days=3").contains("not both"));
        assert!(problem("ladder create o pw top chess --colour").contains("unknown option"));
        assert!(problem("ladder join top alice").contains("password"));
        assert!(problem("ladder challenge top alice pw").contains("name the player"));
        assert!(problem("ladder challenge top alice pw bob carol").contains("unexpected"));
        assert!(problem("ladder climb top").contains("climb"));
    }

    #[test]
    fn challenges_by_password_and_in_a_reply() {
        assert_eq!(
            parsed("ladder challenge Top alice pw bob").unwrap(),
            Ladder::Challenge {
                name: "top".into(),
                speaker: Speaker::Password {
                    userid: "alice".into(),
                    password: "pw".into()
                },
                opponent: "bob".into()
            }
        );
        assert_eq!(
            parsed("ladder challenge top bob").unwrap(),
            Ladder::Challenge {
                name: "top".into(),
                speaker: Speaker::Token,
                opponent: "bob".into()
            }
        );
        assert_eq!(
            parsed("ladder show top").unwrap(),
            Ladder::Show { name: "top".into() }
        );
    }
}
