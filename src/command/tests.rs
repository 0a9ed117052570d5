//! Tests of the language across commands: the forms that tell a line
//! written in full from its reply form.

use crate::command::{
    Challenge, Command, CommandError, Password, SetAddresses, Speaker, Vacation, parse_line,
};

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
        Ok(Command::Password(Password::Change {
            speaker: alice(),
            new: "new-pw".into()
        }))
    );
    assert_eq!(
        parse("password new-pw"),
        Ok(Command::Password(Password::Change {
            speaker: Speaker::Token,
            new: "new-pw".into()
        }))
    );
    assert_eq!(parse("password new-pw").map(|c| c.passwords().len()), Ok(1));
    assert_eq!(
        parse("password reset alice"),
        Ok(Command::Password(Password::Reset {
            userid: "alice".into()
        }))
    );
    assert_eq!(
        parse("password reset alice").map(|c| c.passwords().len()),
        Ok(0)
    );
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
