//! The mail command language (docs/players.md): one line of text becomes one
//! typed [`Command`], or a [`CommandError`] saying what the line should
//! have looked like. No I/O and no store: the service acts on the result.
//!
//! Words are case-insensitive except passwords and free text. A line whose
//! first word (after an optional variant name) is not a command word is not
//! a command at all: the service treats it as a turn or a comment.

mod account;
pub mod blank;
mod board;
mod conditional;
mod extend;
mod info;
mod ladder;
mod preferences;
mod ratings;
mod table;
mod tournament;

use std::fmt;

use crate::rules::Variant;

pub use account::{Password, SetAddresses, Signup, Vacation};
pub use board::{
    Action, BoardAction, Challenge, Chat, ColorChoice, MoveTurn, Queue, Subscriber, Subscription,
    split_guard,
};
pub use conditional::{If, IfWhat, begins_like_a_line};
pub use extend::Extend;
pub use info::{Games, GamesFilter, HelpTopic, Show};
pub use ladder::{CreateLadder, Ladder, MAX_LADDER_NAME};
pub use preferences::{Change, SetPreference};
pub use table::{Definition, Form, InReply, Word};
pub use tournament::{
    Create as CreateTournament, EventFilter, MAX_BROADCAST_CHARS, MAX_INVITES, Ruling, Tournament,
    View, Withdrawal,
};

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

/// One command of the mail language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Signup(Signup),
    Password(Password),
    Address(SetAddresses),
    Help(HelpTopic),
    Games(Games),
    Challenge(Challenge),
    Move(MoveTurn),
    Show(Show),
    History {
        board: u32,
    },
    Pgn {
        board: u32,
    },
    Action(BoardAction),
    Queue(Queue),
    /// `if ...`: a conditional line, or `clear`.
    If(If),
    Subscription(Subscription),
    Chat(Chat),
    /// `extend ...`: extra days on the opponent's clock.
    Extend(Extend),
    Vacation(Vacation),
    /// `confirm <code>`: the sender's address confirms a claim on it.
    Confirm {
        code: String,
    },
    /// `tournament ...` and `tournaments`.
    Tournament(Tournament),
    /// `ladder ...` and `ladders`.
    Ladder(Ladder),
    /// `ratings [<variant>]` (alias `standings`): the standings.
    Ratings {
        variant: Option<Variant>,
    },
    /// `rating <userid>`: one player's ratings and last rated games.
    Rating {
        userid: String,
    },
    /// `set ...`: changes one of the speaker's preferences.
    Set(SetPreference),
    /// `settings ...`: shows the speaker's preferences.
    Settings {
        speaker: Speaker,
    },
}

impl Command {
    /// The board the command is about, if any.
    pub fn board(&self) -> Option<u32> {
        match self {
            Command::Move(m) => Some(m.board),
            Command::Show(s) => Some(s.board),
            Command::History { board } | Command::Pgn { board } => Some(*board),
            Command::Action(a) => Some(a.board),
            Command::Queue(q) => Some(q.board),
            Command::If(c) => Some(c.board),
            Command::Subscription(s) => Some(s.board),
            Command::Chat(c) => Some(c.board),
            Command::Extend(c) => Some(c.board),
            Command::Signup(_)
            | Command::Password(_)
            | Command::Address(_)
            | Command::Help(_)
            | Command::Games(_)
            | Command::Challenge(_)
            | Command::Vacation(_)
            | Command::Confirm { .. }
            | Command::Tournament(_)
            | Command::Ladder(_)
            | Command::Ratings { .. }
            | Command::Rating { .. }
            | Command::Set(_)
            | Command::Settings { .. } => None,
        }
    }

    /// The userid and password the command logs in with, if any.
    pub fn credentials(&self) -> Option<(&str, &str)> {
        match self {
            Command::Password(p) => p.speaker.credentials(),
            Command::Address(a) => a.speaker.credentials(),
            Command::Vacation(v) => v.speaker.credentials(),
            Command::Challenge(c) => c.speaker.credentials(),
            Command::Move(m) => m.speaker.credentials(),
            Command::Action(a) => a.speaker.credentials(),
            Command::Queue(q) => q.speaker.credentials(),
            Command::If(c) => c.speaker.credentials(),
            Command::Chat(c) => c.speaker.credentials(),
            Command::Extend(c) => c.speaker.credentials(),
            Command::Set(c) => c.speaker.credentials(),
            Command::Settings { speaker } => speaker.credentials(),
            Command::Subscription(Subscription {
                subscriber: Subscriber::Player(speaker),
                ..
            }) => speaker.credentials(),
            Command::Tournament(t) => t.speaker().and_then(Speaker::credentials),
            Command::Ladder(l) => l.speaker().and_then(Speaker::credentials),
            Command::Signup(_)
            | Command::Confirm { .. }
            | Command::Help(_)
            | Command::Games(_)
            | Command::Show(_)
            | Command::History { .. }
            | Command::Pgn { .. }
            | Command::Ratings { .. }
            | Command::Rating { .. }
            | Command::Subscription(_) => None,
        }
    }

    /// Passwords the line carries, to blank when quoting it back: the
    /// login's, and those a command carries besides (a signup's, a new
    /// password).
    pub fn passwords(&self) -> Vec<&str> {
        let besides = match self {
            Command::Signup(s) => Some(s.password.as_str()),
            Command::Password(p) => Some(p.new.as_str()),
            Command::Address(_)
            | Command::Vacation(_)
            | Command::Challenge(_)
            | Command::Move(_)
            | Command::Action(_)
            | Command::Queue(_)
            | Command::If(_)
            | Command::Chat(_)
            | Command::Extend(_)
            | Command::Set(_)
            | Command::Settings { .. }
            | Command::Tournament(_)
            | Command::Ladder(_)
            | Command::Subscription(_)
            | Command::Confirm { .. }
            | Command::Help(_)
            | Command::Games(_)
            | Command::Show(_)
            | Command::History { .. }
            | Command::Pgn { .. }
            | Command::Ratings { .. }
            | Command::Rating { .. } => None,
        };
        self.credentials()
            .map(|(_, password)| password)
            .into_iter()
            .chain(besides)
            .collect()
    }

    /// The command word of the command.
    pub fn word(&self) -> Word {
        match self {
            Command::Signup(_) => Word::Signup,
            Command::Password(_) => Word::Password,
            Command::Address(_) => Word::Address,
            Command::Help(_) => Word::Help,
            Command::Games(_) => Word::Games,
            Command::Challenge(_) => Word::Challenge,
            Command::Move(_) => Word::Move,
            Command::Show(_) => Word::Show,
            Command::History { .. } => Word::History,
            Command::Pgn { .. } => Word::Pgn,
            Command::Action(a) => match a.action {
                Action::Resign => Word::Resign,
                Action::Draw => Word::Draw,
                Action::Accept => Word::Accept,
                Action::Reject => Word::Reject,
                Action::Undo => Word::Undo,
                Action::Decline => Word::Decline,
            },
            Command::Queue(_) => Word::Queue,
            Command::If(_) => Word::If,
            Command::Subscription(s) if s.subscribe => Word::Subscribe,
            Command::Subscription(_) => Word::Unsubscribe,
            Command::Chat(_) => Word::Chat,
            Command::Extend(_) => Word::Extend,
            Command::Vacation(_) => Word::Vacation,
            Command::Confirm { .. } => Word::Confirm,
            Command::Tournament(Tournament::List(_)) => Word::Tournaments,
            Command::Tournament(_) => Word::Tournament,
            Command::Ladder(Ladder::List) => Word::Ladders,
            Command::Ladder(_) => Word::Ladder,
            Command::Ratings { .. } => Word::Ratings,
            Command::Rating { .. } => Word::Rating,
            Command::Set(_) => Word::Set,
            Command::Settings { .. } => Word::Settings,
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
    let parsed = match word {
        Word::Signup => account::signup(args),
        Word::Password => account::password(args),
        Word::Address => account::address(args),
        Word::Vacation => account::vacation(args),
        Word::Confirm => account::confirm(args),
        Word::Help => info::help(args),
        Word::Games => info::games(args),
        Word::Show => info::show(args),
        Word::History => info::history(args),
        Word::Pgn => info::pgn(args),
        Word::Challenge => board::challenge(args),
        Word::Move => board::move_turn(args),
        Word::Queue => board::queue(args),
        // `If you agree, ...` is prose, not a command.
        Word::If => conditional::parse(args)?,
        Word::Resign => board::action(Action::Resign, args),
        Word::Draw => board::action(Action::Draw, args),
        Word::Accept => board::action(Action::Accept, args),
        Word::Reject => board::action(Action::Reject, args),
        Word::Undo => board::action(Action::Undo, args),
        Word::Decline => board::action(Action::Decline, args),
        Word::Subscribe => board::subscription(true, args),
        Word::Unsubscribe => board::subscription(false, args),
        Word::Chat => board::chat(args),
        Word::Extend => extend::extend(args),
        Word::Tournament | Word::Tournaments => tournament::parse(&keyword, args),
        Word::Ladder | Word::Ladders => ladder::parse(&keyword, args),
        // `standings` is told as the sender wrote it.
        Word::Ratings => ratings::ratings(&keyword, args),
        Word::Rating => ratings::rating(args),
        Word::Set => preferences::set(args),
        Word::Settings => preferences::settings(args),
    };
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
                "\"{word}\" is not {} {what} name: a letter, then letters, digits, - or _, up to {max} characters",
                if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                }
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
