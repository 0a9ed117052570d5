//! Account commands: `signup`, `password`, `address`, `vacation`, `confirm`.
//! In a reply to a mail pbem sent the player, `password`, `address` and
//! `vacation` may leave out the userid (and the old password): the reply
//! token proves the player.

use super::{Command, CommandError, Speaker, credentials, error};

/// `signup <userid> <password> [address...]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signup {
    pub userid: String,
    pub password: String,
    /// Empty: the mail's From address.
    pub addresses: Vec<String>,
}

/// `password <userid> <old> <new>`, or `password <new>` in a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Password {
    /// The userid and the old password, or the reply token.
    pub speaker: Speaker,
    pub new: String,
}

/// `address <userid> <password> <address...>`, or `address <address...>`
/// in a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetAddresses {
    pub speaker: Speaker,
    pub addresses: Vec<String>,
}

/// `vacation <userid> <password> <days>`, or `vacation <days>` in a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub speaker: Speaker,
    pub days: u32,
}

pub(super) const SIGNUP: &str = "signup <userid> <password> [address...]";
pub(super) const PASSWORD: &str =
    "password <userid> <old password> <new password>, or in a reply: password <new password>";
pub(super) const ADDRESS: &str =
    "address <userid> <password> <address...>, or in a reply: address <address...>";
pub(super) const VACATION: &str =
    "vacation <userid> <password> <days>, or in a reply: vacation <days>";
pub(super) const CONFIRM: &str = "confirm <code>";

pub(super) fn signup(args: &[&str]) -> Result<Command, CommandError> {
    let (userid, password, rest) = credentials(args, "signup", SIGNUP)?;
    Ok(Command::Signup(Signup {
        userid,
        password,
        addresses: rest.iter().map(|a| a.to_string()).collect(),
    }))
}

pub(super) fn password(args: &[&str]) -> Result<Command, CommandError> {
    match args {
        [new] => Ok(Command::Password(Password {
            speaker: Speaker::Token,
            new: new.to_string(),
        })),
        [userid, old, new] => Ok(Command::Password(Password {
            speaker: Speaker::Password {
                userid: userid.to_string(),
                password: old.to_string(),
            },
            new: new.to_string(),
        })),
        _ => Err(error(
            "password",
            "expected a userid, the old and the new password (in a reply: the new password alone)",
            PASSWORD,
        )),
    }
}

pub(super) fn address(args: &[&str]) -> Result<Command, CommandError> {
    let keyword = "address";
    // A userid holds no '@': a first word with one is the reply form's
    // first address.
    let (speaker, rest) = if args.first().is_some_and(|first| first.contains('@')) {
        (Speaker::Token, args)
    } else {
        let (userid, password, rest) = credentials(args, keyword, ADDRESS)?;
        (Speaker::Password { userid, password }, rest)
    };
    if rest.is_empty() {
        return Err(error(keyword, "give at least one address", ADDRESS));
    }
    Ok(Command::Address(SetAddresses {
        speaker,
        addresses: rest.iter().map(|a| a.to_string()).collect(),
    }))
}

pub(super) fn confirm(args: &[&str]) -> Result<Command, CommandError> {
    match args {
        [code] => Ok(Command::Confirm {
            code: code.to_ascii_uppercase(),
        }),
        _ => Err(error(
            "confirm",
            "give the code of the confirmation mail",
            CONFIRM,
        )),
    }
}

pub(super) fn vacation(args: &[&str]) -> Result<Command, CommandError> {
    let keyword = "vacation";
    let (speaker, rest) = match args {
        [_] => (Speaker::Token, args),
        _ => {
            let (userid, password, rest) = credentials(args, keyword, VACATION)?;
            (Speaker::Password { userid, password }, rest)
        }
    };
    let days = match rest {
        [days] => days.parse().map_err(|_| {
            error(
                keyword,
                &format!("\"{days}\" is not a number of days"),
                VACATION,
            )
        })?,
        _ => return Err(error(keyword, "give the number of days", VACATION)),
    };
    Ok(Command::Vacation(Vacation { speaker, days }))
}

#[cfg(test)]
mod tests {
    use crate::command::{Challenge, Command, Speaker, parse_line};

    use super::*;

    fn parse(line: &str) -> Result<Command, CommandError> {
        parse_line(line).expect("a command").map(|l| l.command)
    }

    fn alice() -> Speaker {
        Speaker::Password {
            userid: "alice".into(),
            password: "pw".into(),
        }
    }

    #[test]
    fn each_account_command_reads_in_full_and_by_reply() {
        assert_eq!(
            parse("password alice pw new-pw"),
            Ok(Command::Password(Password {
                speaker: alice(),
                new: "new-pw".into()
            }))
        );
        assert_eq!(
            parse("password new-pw"),
            Ok(Command::Password(Password {
                speaker: Speaker::Token,
                new: "new-pw".into()
            }))
        );
        assert_eq!(parse("password new-pw").map(|c| c.passwords().len()), Ok(1));
        assert_eq!(
            parse("vacation alice pw 10"),
            Ok(Command::Vacation(Vacation {
                speaker: alice(),
                days: 10
            }))
        );
        assert_eq!(
            parse("vacation 10"),
            Ok(Command::Vacation(Vacation {
                speaker: Speaker::Token,
                days: 10
            }))
        );
        assert_eq!(
            parse("address alice pw a@example.org"),
            Ok(Command::Address(SetAddresses {
                speaker: alice(),
                addresses: vec!["a@example.org".into()]
            }))
        );
        assert_eq!(
            parse("address a@example.org b@example.org"),
            Ok(Command::Address(SetAddresses {
                speaker: Speaker::Token,
                addresses: vec!["a@example.org".into(), "b@example.org".into()]
            }))
        );
    }

    #[test]
    fn challenge_tells_its_forms_by_the_words_before_the_options() {
        let challenge = |line: &str| match parse(line) {
            Ok(Command::Challenge(Challenge {
                speaker, opponent, ..
            })) => Ok((speaker, opponent)),
            Ok(other) => panic!("{other:?}"),
            Err(error) => Err(error),
        };
        assert_eq!(
            challenge("challenge bob --white --days=3"),
            Ok((Speaker::Token, "bob".to_string()))
        );
        assert_eq!(
            challenge("challenge bob"),
            Ok((Speaker::Token, "bob".to_string()))
        );
        assert_eq!(
            challenge("challenge alice pw bob --white"),
            Ok((alice(), "bob".to_string()))
        );
        // A password that looks like an option is still a password.
        assert_eq!(
            challenge("challenge alice --pw bob"),
            Ok((
                Speaker::Password {
                    userid: "alice".into(),
                    password: "--pw".into()
                },
                "bob".to_string()
            ))
        );
        assert!(challenge("challenge").is_err());
        assert!(challenge("challenge --white").is_err());
        assert!(challenge("challenge alice pw").is_err());
        assert!(challenge("challenge alice pw --white").is_err());
    }

    #[test]
    fn malformed_account_lines_say_what_is_wrong() {
        assert!(parse("password alice new-pw").is_err());
        assert!(parse("vacation alice pw").is_err());
        let error = parse("vacation soon").expect_err("refused");
        assert!(error.problem.contains("\"soon\""), "{error}");
        assert!(parse("address alice pw").is_err());
        assert!(parse("address").is_err());
    }
}
