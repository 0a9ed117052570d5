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

pub(super) const SIGNUP: &str = "signup <userid> <password> [address...]";
pub(super) const PASSWORD: &str = "password <userid> <old password> <new password>";
pub(super) const ADDRESS: &str = "address <userid> <password> <address...>";
pub(super) const VACATION: &str = "vacation <userid> <password> <days>";
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
        [userid, old, new] => Ok(Command::Password(Password {
            userid: userid.to_string(),
            old: old.to_string(),
            new: new.to_string(),
        })),
        _ => Err(error(
            "password",
            "expected a userid, the old and the new password",
            PASSWORD,
        )),
    }
}

pub(super) fn address(args: &[&str]) -> Result<Command, CommandError> {
    let keyword = "address";
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
