//! Commands that act on a board: `challenge`, `move`, `queue`, `resign`,
//! `draw`, `accept`, `reject`, `undo`, `decline`, `subscribe`,
//! `unsubscribe`, `chat`.

use pbem_clock::{Reminders, TimeControl};

use super::{Command, CommandError, Speaker, board_number, credentials, error};

/// Reads `--time=<control>` (also for `tournament create`).
pub(super) fn time_control(
    keyword: &str,
    value: Option<&str>,
    usage: &'static str,
) -> Result<TimeControl, CommandError> {
    let value = value.ok_or_else(|| {
        error(
            keyword,
            &format!("--time needs a control: {}", pbem_clock::FORMS),
            usage,
        )
    })?;
    value
        .parse()
        .map_err(|problem| error(keyword, &format!("--time={value}: {problem}"), usage))
}

/// Reads `--remind=<when>` (also for `tournament create`).
pub(super) fn reminders(
    keyword: &str,
    value: Option<&str>,
    usage: &'static str,
) -> Result<Reminders, CommandError> {
    let value = value.ok_or_else(|| {
        error(
            keyword,
            &format!("--remind needs a value: {}", pbem_clock::REMINDER_FORMS),
            usage,
        )
    })?;
    value
        .parse()
        .map_err(|problem| error(keyword, &format!("--remind={value}: {problem}"), usage))
}

/// Which colour the challenger takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// `challenge <userid> <password> <opponent> [--white|--black|--random]
/// [--time=CONTROL] [--remind=WHEN] [--days=N] [--nag=N] [--forfeit=N]
/// [--unrated] [--private]`
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
}

/// `move <board> <userid> <password> <turn>[#<turn number>]`, or a bare
/// turn in a reply to a board mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTurn {
    pub board: u32,
    pub speaker: Speaker,
    /// The turn as written (`Nf6,d5`).
    pub turn: String,
    /// The `#n` guard: the number of the turn being played.
    pub guard: Option<u32>,
}

/// `queue <board> <userid> <password> <turn>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queue {
    pub board: u32,
    pub speaker: Speaker,
    pub turn: String,
}

/// The one-word board actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Resign,
    /// Offers a draw, or accepts a standing offer (or claims one).
    Draw,
    /// Accepts the opponent's standing draw or undo offer.
    Accept,
    /// Rejects it.
    Reject,
    /// Asks to take back the last turn.
    Undo,
    /// Declines a challenge before making a move.
    Decline,
}

impl Action {
    pub fn word(self) -> &'static str {
        match self {
            Action::Resign => "resign",
            Action::Draw => "draw",
            Action::Accept => "accept",
            Action::Reject => "reject",
            Action::Undo => "undo",
            Action::Decline => "decline",
        }
    }
}

/// `resign|draw|accept|reject|undo|decline <board> <userid> <password>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardAction {
    pub board: u32,
    pub speaker: Speaker,
    pub action: Action,
}

/// `subscribe|unsubscribe <board> <userid> <password>`: the player's
/// (confirmed) address follows the board or stops; also `unsubscribe
/// <board> <address>` from that very address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subscription {
    pub board: u32,
    pub subscriber: Subscriber,
    pub subscribe: bool,
}

/// Who (un)subscribes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subscriber {
    /// A player, by password.
    Player(Speaker),
    /// An address written out (only to unsubscribe, from itself).
    Address(String),
}

/// `chat <board> <userid> <password> <text>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chat {
    pub board: u32,
    pub speaker: Speaker,
    pub text: String,
}

pub(super) const CHALLENGE: &str = "challenge <userid> <password> <opponent> [--white|--black|--random] [--time=D|N/D|B+I/C] [--remind=25%,1] [--days=N] [--nag=N] [--forfeit=N] [--unrated] [--private] (in a reply to a mail of pbem's, without userid and password: challenge <opponent> [options])";
pub(super) const MOVE: &str = "move <board> <userid> <password> <turn>[#<turn number>]";
pub(super) const QUEUE: &str = "queue <board> <userid> <password> <turn>";
pub(super) const ACTION: &str =
    "resign|draw|accept|reject|undo|decline <board> <userid> <password>";
pub(super) const SUBSCRIBE: &str =
    "subscribe|unsubscribe <board> <userid> <password>, or unsubscribe <board> <address>";
pub(super) const CHAT: &str = "chat <board> <userid> <password> <text>";

pub(super) fn move_turn(args: &[&str]) -> Result<Command, CommandError> {
    let (board, speaker, written) = board_login_turn(args, "move", MOVE)?;
    let (turn, guard) = split_guard(&written);
    Ok(Command::Move(MoveTurn {
        board,
        speaker,
        turn,
        guard,
    }))
}

pub(super) fn queue(args: &[&str]) -> Result<Command, CommandError> {
    let (board, speaker, turn) = board_login_turn(args, "queue", QUEUE)?;
    Ok(Command::Queue(Queue {
        board,
        speaker,
        turn,
    }))
}

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

pub(super) fn subscription(subscribe: bool, args: &[&str]) -> Result<Command, CommandError> {
    let keyword = if subscribe {
        "subscribe"
    } else {
        "unsubscribe"
    };
    let board = board_number(args.first(), keyword, SUBSCRIBE)?;
    let subscriber = match &args[1..] {
        [address] if address.contains('@') && !subscribe => {
            Subscriber::Address(address.to_string())
        }
        [address] if address.contains('@') => {
            return Err(error(
                keyword,
                "a subscription needs your userid and password (it follows the board at your registered address)",
                SUBSCRIBE,
            ));
        }
        [userid, password] => Subscriber::Player(Speaker::Password {
            userid: userid.to_string(),
            password: password.to_string(),
        }),
        _ => {
            return Err(error(
                keyword,
                "give a board number, your userid and your password",
                SUBSCRIBE,
            ));
        }
    };
    Ok(Command::Subscription(Subscription {
        board,
        subscriber,
        subscribe,
    }))
}

pub(super) fn chat(args: &[&str]) -> Result<Command, CommandError> {
    let keyword = "chat";
    let board = board_number(args.first(), keyword, CHAT)?;
    let (userid, password, rest) = credentials(&args[1..], keyword, CHAT)?;
    if rest.is_empty() {
        return Err(error(keyword, "the message is missing", CHAT));
    }
    Ok(Command::Chat(Chat {
        board,
        speaker: Speaker::Password { userid, password },
        text: rest.join(" "),
    }))
}

pub(super) fn action(action: Action, args: &[&str]) -> Result<Command, CommandError> {
    let keyword = action.word();
    let board = board_number(args.first(), keyword, ACTION)?;
    let (userid, password, rest) = credentials(&args[1..], keyword, ACTION)?;
    if !rest.is_empty() {
        return Err(error(
            keyword,
            "unexpected words after the password",
            ACTION,
        ));
    }
    Ok(Command::Action(BoardAction {
        board,
        speaker: Speaker::Password { userid, password },
        action,
    }))
}

/// Splits a `#n` turn-number guard off a written turn; a `#` without digits
/// is a mate sign and stays.
pub fn split_guard(written: &str) -> (String, Option<u32>) {
    if let Some((turn, number)) = written.rsplit_once('#')
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && let Ok(number) = number.parse()
    {
        return (turn.trim_end().to_string(), Some(number));
    }
    (written.trim().to_string(), None)
}

pub(super) fn challenge(args: &[&str]) -> Result<Command, CommandError> {
    let keyword = "challenge";
    // The forms differ in the words before the options: the opponent
    // alone (in a reply), or userid, password and opponent. A third word
    // that is no option makes the full form, even with a password that
    // looks like one (`--secret`).
    let is_option = |word: Option<&&str>| word.is_none_or(|w| w.starts_with("--"));
    let (speaker, rest) = if is_option(args.get(2)) && is_option(args.get(1)) {
        (Speaker::Token, args)
    } else {
        let (userid, password, rest) = credentials(args, keyword, CHALLENGE)?;
        (Speaker::Password { userid, password }, rest)
    };
    let Some((opponent, options)) = rest.split_first() else {
        return Err(error(
            keyword,
            "the opponent's userid is missing",
            CHALLENGE,
        ));
    };
    if opponent.starts_with("--") {
        return Err(error(
            keyword,
            "the opponent's userid is missing",
            CHALLENGE,
        ));
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
    };
    for option in options {
        let lower = option.to_ascii_lowercase();
        let (name, value) = match lower.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (lower.as_str(), None),
        };
        let days = || -> Result<u32, CommandError> {
            let value = value.ok_or_else(|| {
                error(
                    keyword,
                    &format!("{name} needs a number: {name}=N"),
                    CHALLENGE,
                )
            })?;
            value
                .parse()
                .ok()
                .filter(|days| (1..=365).contains(days))
                .ok_or_else(|| {
                    error(
                        keyword,
                        &format!("{name}={value}: give a number of days from 1 to 365"),
                        CHALLENGE,
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
            "--time" => challenge.time = Some(time_control(keyword, value, CHALLENGE)?),
            "--remind" => challenge.remind = Some(reminders(keyword, value, CHALLENGE)?),
            _ => {
                return Err(error(
                    keyword,
                    &format!("unknown option \"{option}\""),
                    CHALLENGE,
                ));
            }
        }
    }
    Ok(Command::Challenge(challenge))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_is_split_from_the_turn_but_a_mate_sign_stays() {
        assert_eq!(
            split_guard("Nf3,Bb5+#12"),
            ("Nf3,Bb5+".to_string(), Some(12))
        );
        assert_eq!(split_guard("Qh4#"), ("Qh4#".to_string(), None));
        assert_eq!(split_guard("Qh4##7"), ("Qh4#".to_string(), Some(7)));
        assert_eq!(split_guard("e4"), ("e4".to_string(), None));
    }

    #[test]
    fn private_is_a_challenge_option() {
        let private = |line: &str| match challenge(&line.split_whitespace().collect::<Vec<_>>()) {
            Ok(Command::Challenge(c)) => c.private,
            other => panic!("{other:?}"),
        };
        assert!(private("alice pw bob --private --white"));
        assert!(private("bob --PRIVATE"));
        assert!(!private("alice pw bob --white"));
    }
}
