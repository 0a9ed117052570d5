//! Account commands: `signup`, `password`, `address`, `vacation`, `confirm`.

use super::{Command, CommandError, credentials, error};

/// `signup <userid> <password> [address...]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signup {
    pub userid: String,
    pub password: String,
    /// Empty: the mail's From address.
    pub addresses: Vec<String>,
}

/// `password <userid> <old> <new>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Password {
    pub userid: String,
    pub old: String,
    pub new: String,
}

/// `address <userid> <password> <address...>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetAddresses {
    pub userid: String,
    pub password: String,
    pub addresses: Vec<String>,
}

/// `vacation <userid> <password> <days>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub userid: String,
    pub password: String,
    pub days: u32,
}

const SIGNUP: &str = "signup <userid> <password> [address...]";
const PASSWORD: &str = "password <userid> <old password> <new password>";
const ADDRESS: &str = "address <userid> <password> <address...>";
const VACATION: &str = "vacation <userid> <password> <days>";
const CONFIRM: &str = "confirm <code>";

pub(super) fn parse(keyword: &str, args: &[&str]) -> Result<Command, CommandError> {
    match keyword {
        "signup" => {
            let (userid, password, rest) = credentials(args, keyword, SIGNUP)?;
            Ok(Command::Signup(Signup {
                userid,
                password,
                addresses: rest.iter().map(|a| a.to_string()).collect(),
            }))
        }
        "password" => match args {
            [userid, old, new] => Ok(Command::Password(Password {
                userid: userid.to_string(),
                old: old.to_string(),
                new: new.to_string(),
            })),
            _ => Err(error(
                keyword,
                "expected a userid, the old and the new password",
                PASSWORD,
            )),
        },
        "address" => {
            let (userid, password, rest) = credentials(args, keyword, ADDRESS)?;
            if rest.is_empty() {
                return Err(error(keyword, "give at least one address", ADDRESS));
            }
            Ok(Command::Address(SetAddresses {
                userid,
                password,
                addresses: rest.iter().map(|a| a.to_string()).collect(),
            }))
        }
        "confirm" => match args {
            [code] => Ok(Command::Confirm {
                code: code.to_ascii_uppercase(),
            }),
            _ => Err(error(
                keyword,
                "give the code of the confirmation mail",
                CONFIRM,
            )),
        },
        _ => {
            let (userid, password, rest) = credentials(args, keyword, VACATION)?;
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
            Ok(Command::Vacation(Vacation {
                userid,
                password,
                days,
            }))
        }
    }
}
