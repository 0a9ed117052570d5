//! The mail command language (docs/players.md): one line of text becomes one
//! typed [`Command`], or a [`CommandError`] saying what the line should
//! have looked like. No I/O and no store: the service acts on the result.
//!
//! Each command has one home, `command/<name>.rs`: its type, its
//! [`Definition`] (words, forms, where its passwords stand, its reply
//! form), its parser and its short form in a reply, all as its
//! [`MailCommand`] implementation. Its act is `service/commands/<name>.rs`.
//! The one list in `list` generates [`Word`], [`Command`] and the
//! dispatch over them.
//!
//! Words are case-insensitive except passwords and free text. A line whose
//! first word (after an optional variant name) is not a command word is not
//! a command at all: the service treats it as a turn or a comment.

mod definition;
#[macro_use]
mod list;
mod options;

pub mod blank;
pub mod reading;

/// Defines a one-word board command (`resign`, `draw`, ...):
/// `<word> <board> <userid> <password>`, or the word alone in a reply to a
/// board mail, where what follows it on its line is a comment. Each such
/// command's home states its word and its type with this. Each is a game
/// action (see [`Definition::game_action`]): it answers or acts on a game.
macro_rules! board_word_command {
    ($(#[$doc:meta])* $command:ident, $word:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $command {
            /// 0 in a reply: the reply's board.
            pub board: u32,
            pub speaker: $crate::command::Speaker,
        }

        impl $crate::command::MailCommand for $command {
            const DEFINITION: $crate::command::Definition = $crate::command::Definition {
                words: &[$word],
                forms: &[$crate::command::Form::new(
                    $crate::command::BOARD_ACTIONS,
                    &[3],
                    concat!($word, " 101 alice alice-pw"),
                )],
                in_reply: $crate::command::InReply::Bare,
                names_board: true,
                game_action: true,
                fixed: &[],
            };

            fn parse(
                keyword: &str,
                args: &[&str],
            ) -> Result<$command, $crate::command::CommandError> {
                let (board, speaker) = $crate::command::board_and_login(
                    args,
                    keyword,
                    $crate::command::BOARD_ACTIONS,
                )?;
                Ok($command { board, speaker })
            }

            fn in_reply(_rest: &str, board: u32) -> Option<$command> {
                Some($command {
                    board,
                    speaker: $crate::command::Speaker::Token,
                })
            }

            fn board(&self) -> Option<u32> {
                Some(self.board)
            }

            fn speaker(&self) -> Option<&$crate::command::Speaker> {
                Some(&self.speaker)
            }
        }
    };
}

// One module per command, declared from the one list.
for_each_command!(declare_homes, pub);

use std::fmt;

use crate::rules::Variant;

pub use address::SetAddresses;
pub use challenge::{Challenge, ColorChoice};
pub use chat::Chat;
pub use definition::{Definition, Form, InReply};
pub use extend::Extend;
pub use games::{Games, GamesFilter};
pub use help::HelpTopic;
pub use r#if::{If, IfWhat, begins_like_a_line};
pub use ladder::{CreateLadder, Ladder, MAX_LADDER_NAME};
pub use list::{Command, Word};
pub(crate) use list::{declare_homes, for_each_command};
pub use r#move::{MoveTurn, split_guard};
pub use password::Password;
pub use queue::Queue;
pub use set::{Change, SetPreference};
pub use show::Show;
pub use signup::Signup;
pub use tournament::{
    Create as CreateTournament, MAX_BROADCAST_CHARS, MAX_INVITES, Ruling, Tournament, View,
    Withdrawal,
};
pub use tournaments::EventFilter;
pub use unsubscribe::Subscriber;
pub use vacation::Vacation;

/// What every mail command is: the type its home defines, read from a
/// line by its parser. The defaults are those of a command without board,
/// login, extra passwords or reply form.
pub trait MailCommand: Sized {
    /// Its words, forms, reply form and fixed words.
    const DEFINITION: Definition;

    /// Reads the words after the command word (`keyword`, as written,
    /// lowercase).
    fn parse(keyword: &str, args: &[&str]) -> Result<Self, CommandError>;

    /// Whether the words after the command word are prose rather than
    /// this command (`If you agree, ...`): then the line is no command.
    fn is_prose(_args: &[&str]) -> bool {
        false
    }

    /// The command in its short form in a reply to a board mail of
    /// `board`: its word alone or with a turn (`draw`, `queue e5`), the
    /// words after it being `rest`. `None`: it has no such form, or `rest`
    /// is not it.
    fn in_reply(_rest: &str, _board: u32) -> Option<Self> {
        None
    }

    /// The board it acts on or shows (0: the reply's board).
    fn board(&self) -> Option<u32> {
        None
    }

    /// Who speaks for it: a password, or the reply token.
    fn speaker(&self) -> Option<&Speaker> {
        None
    }

    /// Passwords it carries besides its login's (a signup's, a new one).
    fn passwords_besides(&self) -> Vec<&str> {
        Vec::new()
    }
}

/// Who speaks for a player: a password in the command, or the reply token
/// of the mail (checked by the service).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Speaker {
    Password {
        userid: String,
        password: String,
    },
    /// The mail is a reply to a mail pbem sent the player (a board mail
    /// or another): the token names the player.
    Token,
}

impl Speaker {
    /// The userid and password this speaker logs in with.
    pub fn credentials(&self) -> Option<(&str, &str)> {
        match self {
            Speaker::Password { userid, password } => Some((userid, password)),
            Speaker::Token => None,
        }
    }

    /// The password to blank when quoting the mail back.
    pub fn password(&self) -> Option<&str> {
        match self {
            Speaker::Password { password, .. } => Some(password),
            Speaker::Token => None,
        }
    }
}

/// A line that starts like a command but does not follow its form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    /// The command word as the user wrote it.
    pub command: String,
    /// What is wrong.
    pub problem: String,
    /// The form the command takes.
    pub usage: &'static str,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}; the command is: {}",
            self.command, self.problem, self.usage
        )
    }
}

impl std::error::Error for CommandError {}

/// A command line: the command, and the variant word written before it
/// (which must match the board's variant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub variant: Option<Variant>,
    pub command: Command,
}

/// Parses one line. `None` when the line is not a command; a line that
/// starts with a command word but is malformed is an error.
pub fn parse_line(line: &str) -> Option<Result<Line, CommandError>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (variant, rest) = match words.split_first() {
        Some((first, rest)) if rest.first().is_some_and(|w| is_command_word(w)) => {
            match first.parse::<Variant>() {
                Ok(variant) => (Some(variant), rest),
                Err(_) => (None, &words[..]),
            }
        }
        _ => (None, &words[..]),
    };
    let (written, args) = rest.split_first()?;
    let word = Word::from_text(written)?;
    let keyword = written.to_ascii_lowercase();
    let parsed = word.parse(&keyword, args)?;
    Some(parsed.map(|command| Line { variant, command }))
}

/// Whether `word` (any case) starts a command.
pub fn is_command_word(word: &str) -> bool {
    Word::from_text(word).is_some()
}

/// Reads a board number.
fn board_number(
    word: Option<&&str>,
    command: &str,
    usage: &'static str,
) -> Result<u32, CommandError> {
    let word = word.ok_or_else(|| error(command, "the board number is missing", usage))?;
    word.trim_start_matches('#')
        .parse()
        .map_err(|_| error(command, &format!("\"{word}\" is not a board number"), usage))
}

/// The name of an event or a ladder (`what`): a letter, then letters,
/// digits, `-` or `_`, up to `max` characters; kept in lower case.
fn name_word(
    word: Option<&&str>,
    command: &str,
    what: &str,
    max: usize,
    usage: &'static str,
) -> Result<String, CommandError> {
    let word = word.ok_or_else(|| error(command, &format!("the {what} name is missing"), usage))?;
    let good = word.len() <= max
        && word.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !good {
        return Err(error(
            command,
            &format!(
                "\"{word}\" is not {} {what} name: a letter, then letters, digits, - or _, up to {}",
                if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                },
                crate::render::count(max, "character")
            ),
            usage,
        ));
    }
    Ok(word.to_ascii_lowercase())
}

fn error(command: &str, problem: &str, usage: &'static str) -> CommandError {
    CommandError {
        command: command.to_string(),
        problem: problem.to_string(),
        usage,
    }
}

/// `userid password` from the front of `args`.
fn credentials<'a>(
    args: &'a [&'a str],
    command: &str,
    usage: &'static str,
) -> Result<(String, String, &'a [&'a str]), CommandError> {
    match args {
        [userid, password, rest @ ..] => Ok((userid.to_string(), password.to_string(), rest)),
        [_] => Err(error(command, "the password is missing", usage)),
        [] => Err(error(command, "the userid and password are missing", usage)),
    }
}

/// The arguments with the unit of a number of days dropped, as players
/// write it: `2 days`, `1 day`, `2d`, `2days` all leave `2` as the last
/// word. A unit after something that is no number stays (a password may
/// be `days`).
fn without_day_unit<'a>(args: &[&'a str]) -> Vec<&'a str> {
    const UNITS: [&str; 3] = ["days", "day", "d"];
    let numeric = |word: &str| {
        word.trim_start_matches(['-', '+'])
            .starts_with(|c: char| c.is_ascii_digit() || c == '.')
    };
    let mut args = args.to_vec();
    if let [.., number, unit] = args[..]
        && numeric(number)
        && UNITS.iter().any(|u| unit.eq_ignore_ascii_case(u))
    {
        args.pop();
    } else if let Some(last) = args.last_mut() {
        let word: &'a str = last;
        let lower = word.to_ascii_lowercase();
        if let Some(unit) = UNITS.iter().find(|u| lower.ends_with(*u))
            && numeric(&word[..word.len() - unit.len()])
        {
            *last = &word[..word.len() - unit.len()];
        }
    }
    args
}

/// Why a written number of days cannot be used, in words: `None` when it
/// looks fine and the command's own parsing decides.
fn days_problem(written: &str) -> Option<String> {
    if written.starts_with('-') {
        return Some(format!(
            "\"{written}\" is negative: give a number of days above 0"
        ));
    }
    let digits = written.trim_start_matches('+');
    let whole = digits.split('.').next().unwrap_or("");
    if !whole.is_empty() && whole.bytes().all(|b| b.is_ascii_digit()) {
        if whole.parse::<u32>().is_err() {
            return Some(format!("\"{written}\" days is far too many"));
        }
        if digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && digits.bytes().all(|b| b == b'0' || b == b'.')
        {
            return Some(format!(
                // not a count: `written` is always a zero here, and "0 days" is plural.
                "{written} days give nothing: give a number of days above 0"
            ));
        }
    }
    None
}

/// `<board> <userid> <password>` and nothing after: the form of the
/// one-word board commands (`resign`, `draw`, ...).
fn board_and_login(
    args: &[&str],
    keyword: &str,
    usage: &'static str,
) -> Result<(u32, Speaker), CommandError> {
    let board = board_number(args.first(), keyword, usage)?;
    let (userid, password, rest) = credentials(&args[1..], keyword, usage)?;
    if !rest.is_empty() {
        return Err(error(keyword, "unexpected words after the password", usage));
    }
    Ok((board, Speaker::Password { userid, password }))
}

/// The board number that is the only word after the command word.
fn only_board(args: &[&str], keyword: &str, usage: &'static str) -> Result<u32, CommandError> {
    if args.len() > 1 {
        return Err(error(
            keyword,
            "unexpected words after the board number",
            usage,
        ));
    }
    board_number(args.first(), keyword, usage)
}

/// The usage of the one-word board commands, which `help` and their
/// errors write as one.
const BOARD_ACTIONS: &str = "resign|draw|accept|reject|undo|decline <board> <userid> <password>";
/// `<board> <userid> <password> <turn>`.
fn board_login_turn(
    args: &[&str],
    keyword: &str,
    usage: &'static str,
) -> Result<(u32, Speaker, String), CommandError> {
    let board = board_number(args.first(), keyword, usage)?;
    let (userid, password, rest) = credentials(&args[1..], keyword, usage)?;
    if rest.is_empty() {
        return Err(error(keyword, "the turn is missing", usage));
    }
    Ok((
        board,
        Speaker::Password { userid, password },
        rest.join(" "),
    ))
}

/// The usage `subscribe` and `unsubscribe` share (as `help` lists them).
const SUBSCRIPTIONS: &str =
    "subscribe|unsubscribe <board> <userid> <password>, or unsubscribe <board> <address>";

#[cfg(test)]
mod tests;
