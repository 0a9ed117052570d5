//! `tournament create|enter|leave|invite|start|withdraw|adjudicate|
//! broadcast|show|standings|crosstable|pgn|trf`: events, run by mail by
//! their director (the list of events is `tournaments`).
//!
//! In a reply to a mail pbem sent a player, every one of them may leave out
//! the userid and password (`tournament start spring`): the reply token
//! speaks for the player ([`Speaker::Token`]). Where the words after the
//! event name do not tell the two forms apart (`invite`, `broadcast`),
//! the parser reads a userid and a password, and the service reads them
//! as names or text instead when the mail is a reply of another player
//! (see `service::commands::tournament`).

use time::macros::format_description;

use super::{
    CommandError, Definition, Form, InReply, MailCommand, Speaker, board_number, credentials, error,
};
use crate::tournament::groups::MAX_GROUPS;
use crate::tournament::knockout::{MAX_MATCH_GAMES, TieRule};
use crate::tournament::{MAX_ROUND_ROBIN, MAX_SWISS_ROUNDS, Tiebreak, parse_tiebreaks};

/// `tournament create <userid> <password> <name> <variant> [options]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Create {
    pub speaker: Speaker,
    pub name: String,
    pub variant: String,
    pub double: bool,
    pub swiss_rounds: Option<u32>,
    pub round_days: Option<u32>,
    pub days_per_turn: Option<u32>,
    pub nag_days: Option<u32>,
    pub forfeit_days: Option<u32>,
    /// `--time=`: the control of the event's games.
    pub time: Option<pbem_clock::TimeControl>,
    /// `--remind=`: their reminders.
    pub remind: Option<pbem_clock::Reminders>,
    pub vacation_days: Option<u32>,
    pub max_entrants: Option<u32>,
    pub rated: bool,
    /// `--closes=YYYY-MM-DD`: entries close at the end of that day (UTC).
    pub closes: Option<time::Date>,
    pub invite_only: bool,
    pub tiebreaks: Option<Vec<Tiebreak>>,
    pub min_rating: Option<u32>,
    pub max_rating: Option<u32>,
    /// `--public-delay=N`: the web site shows running games N turns behind.
    pub public_delay: u32,
    /// `--knockout`: a cup of mini-matches (issue 28).
    pub knockout: bool,
    /// `--match=N`: games of each knockout mini-match.
    pub match_games: Option<u32>,
    /// `--tie=playoff|seed`: what decides a tied knockout match.
    pub tie: Option<TieRule>,
    /// `--groups=G`: round-robin groups, then a final stage.
    pub groups: Option<u32>,
    /// `--advance=K`: how many of each group go on.
    pub advance: Option<u32>,
    /// `--final=knockout` (else a round robin).
    pub knockout_final: bool,
    /// `--position=N`: the Chess960 array every game starts from.
    pub position: Option<u32>,
    /// `--opening=<ECO code or name>`: every game's thematic start (chess
    /// only).
    pub opening: Option<crate::openings::Opening>,
}

/// How a withdrawn player's games are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawal {
    /// Finished games stand; unfinished ones are lost by forfeit.
    KeepPlayed,
    /// Every game of the player, finished or not, is lost by forfeit.
    ForfeitAll,
}

/// What the director rules on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ruling {
    WhiteWins,
    BlackWins,
    Draw,
    Cancel,
}

impl Ruling {
    pub fn score(self) -> &'static str {
        match self {
            Ruling::WhiteWins => "1-0",
            Ruling::BlackWins => "0-1",
            Ruling::Draw => "1/2-1/2",
            Ruling::Cancel => "-",
        }
    }
}

/// What anybody may ask about an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Show,
    Standings,
    Crosstable,
    Pgn,
    Trf,
}

/// A `tournament ...` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tournament {
    Create(Box<Create>),
    Enter {
        name: String,
        speaker: Speaker,
    },
    Leave {
        name: String,
        speaker: Speaker,
    },
    Invite {
        name: String,
        director: Speaker,
        players: Vec<String>,
    },
    Start {
        name: String,
        director: Speaker,
    },
    Withdraw {
        name: String,
        director: Speaker,
        player: String,
        how: Withdrawal,
    },
    Adjudicate {
        name: String,
        director: Speaker,
        board: u32,
        ruling: Ruling,
        reason: String,
    },
    Broadcast {
        name: String,
        director: Speaker,
        text: String,
    },
    View {
        name: String,
        view: View,
        /// Who asks: a large view goes only to a proven player's own
        /// address. `Token` when the line names nobody (the mail's reply
        /// token may prove its player).
        speaker: Speaker,
    },
}

impl Tournament {
    pub fn speaker(&self) -> Option<&Speaker> {
        match self {
            Tournament::Create(c) => Some(&c.speaker),
            Tournament::Enter { speaker, .. } | Tournament::Leave { speaker, .. } => Some(speaker),
            Tournament::Invite { director, .. }
            | Tournament::Start { director, .. }
            | Tournament::Withdraw { director, .. }
            | Tournament::Adjudicate { director, .. }
            | Tournament::Broadcast { director, .. } => Some(director),
            Tournament::View { speaker, .. } => Some(speaker),
        }
    }
}

const CREATE: &str = "tournament create <userid> <password> <name> <variant> [--double|--swiss=ROUNDS|--knockout [--match=N] [--tie=playoff|seed]|--groups=G --advance=K [--final=rr|knockout]] [--round-days=N] [--time=D|N/D|B+I/C] [--remind=25%,1] [--days=N] [--nag=N] [--forfeit=N] [--vacation=N] [--max=N] [--rated|--unrated] [--closes=YYYY-MM-DD] [--invite-only] [--tiebreaks=sb,wins,de] [--min-rating=N] [--max-rating=N] [--public-delay=N] [--position=N] [--opening=ECO|NAME] (in a reply to a mail of pbem's, without userid and password)";
const ENTER: &str = "tournament enter|leave <name> <userid> <password>";
const INVITE: &str = "tournament invite <name> <td> <password> <userid...>";
const START: &str = "tournament start <name> <td> <password>";
const WITHDRAW: &str =
    "tournament withdraw <name> <td> <password> <userid> [--forfeit-all|--keep-played]";
const ADJUDICATE: &str =
    "tournament adjudicate <name> <td> <password> <board> <1-0|0-1|1/2-1/2|cancel> <reason...>";
const BROADCAST: &str = "tournament broadcast <name> <td> <password> <text>";
const VIEW: &str = "tournament show|standings|crosstable|pgn|trf <name> [<userid> <password>]";
const TOURNAMENT: &str = "tournament create|enter|leave|invite|start|withdraw|adjudicate|broadcast|show|standings|crosstable|pgn|trf ... (send \"help\" for the forms)";

/// The longest broadcast, in characters.
pub const MAX_BROADCAST_CHARS: usize = 2_000;
/// The most turns the web site may lag behind an event's running games.
pub const MAX_PUBLIC_DELAY: u32 = 1000;

/// The most players one `tournament invite` names.
pub const MAX_INVITES: usize = 50;

impl MailCommand for Tournament {
    const DEFINITION: Definition = Definition {
        words: &["tournament"],
        forms: &[
            Form::of_sub(
                CREATE,
                &["create"],
                &[3],
                "tournament create td td-pw spring chess --double --days=3",
            ),
            Form::of_sub(
                ENTER,
                &["enter", "leave"],
                &[4],
                "tournament enter spring alice alice-pw",
            ),
            Form::of_sub(
                INVITE,
                &["invite"],
                &[4],
                "tournament invite spring td td-pw bob carol",
            ),
            Form::of_sub(START, &["start"], &[4], "tournament start spring td td-pw"),
            Form::of_sub(
                WITHDRAW,
                &["withdraw"],
                &[4],
                "tournament withdraw spring td td-pw bob --forfeit-all",
            ),
            Form::of_sub(
                ADJUDICATE,
                &["adjudicate"],
                &[4],
                "tournament adjudicate spring td td-pw 101 1-0 bob left",
            ),
            Form::of_sub(
                BROADCAST,
                &["broadcast"],
                &[4],
                "tournament broadcast spring td td-pw round two starts",
            ),
            Form::of_sub(
                VIEW,
                &["show", "standings", "crosstable", "pgn", "trf"],
                &[],
                "tournament crosstable spring",
            ),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        fixed: FIXED,
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Tournament, CommandError> {
        parse(keyword, args)
    }

    fn speaker(&self) -> Option<&Speaker> {
        self.speaker()
    }
}

/// The fixed words of `tournament`'s grammar: never a password.
const FIXED: &[&str] = &[
    "create",
    "enter",
    "leave",
    "invite",
    "start",
    "withdraw",
    "adjudicate",
    "broadcast",
    "show",
    "standings",
    "crosstable",
    "pgn",
    "trf",
    "--double",
    "--swiss=",
    "--round-days=",
    "--time=",
    "--remind=",
    "--days=",
    "--nag=",
    "--forfeit=",
    "--vacation=",
    "--max=",
    "--rated",
    "--unrated",
    "--closes=",
    "--invite-only",
    "--tiebreaks=",
    "--min-rating=",
    "--max-rating=",
    "--public-delay=",
    "--knockout",
    "--match=",
    "--tie=",
    "--groups=",
    "--advance=",
    "--final=",
    "--position=",
    "--opening=",
    "--forfeit-all",
    "--keep-played",
    "1-0",
    "0-1",
    "1/2-1/2",
    "½-½",
    "cancel",
];

fn parse(keyword: &str, args: &[&str]) -> Result<Tournament, CommandError> {
    let Some((sub, rest)) = args.split_first() else {
        return Err(error(keyword, "say what to do", TOURNAMENT));
    };
    let sub = sub.to_ascii_lowercase();
    let command = match sub.as_str() {
        "create" => Tournament::Create(Box::new(parse_create(rest)?)),
        "enter" | "leave" => {
            let name = event_name(rest.first(), ENTER)?;
            let speaker = speaker_alone(&rest[1..], ENTER)?;
            if sub == "enter" {
                Tournament::Enter { name, speaker }
            } else {
                Tournament::Leave { name, speaker }
            }
        }
        "invite" => {
            let name = event_name(rest.first(), INVITE)?;
            let (director, more) = speaker_before(&rest[1..]);
            if more.is_empty() && director == Speaker::Token {
                return Err(error("tournament", "name the players to invite", INVITE));
            }
            if more.len() > MAX_INVITES {
                return Err(error(
                    "tournament",
                    &format!("invite at most {MAX_INVITES} players in one command"),
                    INVITE,
                ));
            }
            Tournament::Invite {
                name,
                director,
                players: more.iter().map(|s| s.to_string()).collect(),
            }
        }
        "start" => {
            let name = event_name(rest.first(), START)?;
            let director = speaker_alone(&rest[1..], START)?;
            Tournament::Start { name, director }
        }
        "withdraw" => {
            let name = event_name(rest.first(), WITHDRAW)?;
            // `<player> [option]` in a reply, `<td> <password> <player>
            // [option]` otherwise.
            let words = &rest[1..];
            let names = words.iter().filter(|w| !w.starts_with("--")).count();
            let (director, more) = if names == 1 {
                (Speaker::Token, words)
            } else {
                let (userid, password, more) = credentials(words, "tournament", WITHDRAW)?;
                (Speaker::Password { userid, password }, more)
            };
            let (player, options) = more
                .split_first()
                .ok_or_else(|| error("tournament", "name the player to withdraw", WITHDRAW))?;
            let how = match options {
                [] => Withdrawal::KeepPlayed,
                [option] if option.eq_ignore_ascii_case("--keep-played") => Withdrawal::KeepPlayed,
                [option] if option.eq_ignore_ascii_case("--forfeit-all") => Withdrawal::ForfeitAll,
                _ => {
                    return Err(error(
                        "tournament",
                        "after the player comes --forfeit-all or --keep-played, or nothing",
                        WITHDRAW,
                    ));
                }
            };
            Tournament::Withdraw {
                name,
                director,
                player: player.to_string(),
                how,
            }
        }
        "adjudicate" => {
            let name = event_name(rest.first(), ADJUDICATE)?;
            // `<board> <ruling> <reason>` in a reply: a board number, then
            // a ruling, where the other form has a userid and a password.
            let words = &rest[1..];
            let by_reply = words
                .first()
                .is_some_and(|w| w.trim_start_matches('#').parse::<u32>().is_ok())
                && words.get(1).is_some_and(|w| ruling(w).is_some());
            let (director, more) = if by_reply {
                (Speaker::Token, words)
            } else {
                let (userid, password, more) = credentials(words, "tournament", ADJUDICATE)?;
                (Speaker::Password { userid, password }, more)
            };
            let board = board_number(more.first(), "tournament", ADJUDICATE)?;
            let ruling = match more.get(1) {
                Some(word) => ruling(word).ok_or_else(|| {
                    error(
                        "tournament",
                        &format!("\"{word}\" is not 1-0, 0-1, 1/2-1/2 or cancel"),
                        ADJUDICATE,
                    )
                })?,
                None => return Err(error("tournament", "the ruling is missing", ADJUDICATE)),
            };
            let reason = more.get(2..).unwrap_or_default().join(" ");
            if reason.is_empty() {
                return Err(error(
                    "tournament",
                    "give a reason after the ruling",
                    ADJUDICATE,
                ));
            }
            if reason.chars().count() > 200 {
                return Err(error(
                    "tournament",
                    "the reason may have up to 200 characters",
                    ADJUDICATE,
                ));
            }
            Tournament::Adjudicate {
                name,
                director,
                board,
                ruling,
                reason,
            }
        }
        "broadcast" => {
            let name = event_name(rest.first(), BROADCAST)?;
            let (director, more) = speaker_before(&rest[1..]);
            let text = more.join(" ");
            if text.is_empty() && director == Speaker::Token {
                return Err(error("tournament", "the text is missing", BROADCAST));
            }
            if text.chars().count() > MAX_BROADCAST_CHARS {
                return Err(error(
                    "tournament",
                    &format!("a broadcast may have up to {MAX_BROADCAST_CHARS} characters"),
                    BROADCAST,
                ));
            }
            Tournament::Broadcast {
                name,
                director,
                text,
            }
        }
        "show" | "standings" | "crosstable" | "pgn" | "trf" => {
            let name = event_name(rest.first(), VIEW)?;
            let speaker = speaker_alone(&rest[1..], VIEW)?;
            let view = match sub.as_str() {
                "show" => View::Show,
                "standings" => View::Standings,
                "crosstable" => View::Crosstable,
                "pgn" => View::Pgn,
                _ => View::Trf,
            };
            Tournament::View {
                name,
                view,
                speaker,
            }
        }
        other => {
            return Err(error(
                "tournament",
                &format!("\"{other}\" is not a tournament command"),
                TOURNAMENT,
            ));
        }
    };
    Ok(command)
}

/// A ruling word.
fn ruling(word: &str) -> Option<Ruling> {
    match word.to_ascii_lowercase().as_str() {
        "1-0" => Some(Ruling::WhiteWins),
        "0-1" => Some(Ruling::BlackWins),
        "1/2-1/2" | "½-½" => Some(Ruling::Draw),
        "cancel" => Some(Ruling::Cancel),
        _ => None,
    }
}

/// `<userid> <password>` and nothing more, or nothing at all (in a reply).
fn speaker_alone(words: &[&str], usage: &'static str) -> Result<Speaker, CommandError> {
    match words {
        [] => Ok(Speaker::Token),
        [_] => Err(error("tournament", "the password is missing", usage)),
        [userid, password, more @ ..] => {
            no_more(more, usage)?;
            Ok(Speaker::Password {
                userid: userid.to_string(),
                password: password.to_string(),
            })
        }
    }
}

/// The words of `invite` and `broadcast` after the event name: a userid
/// and a password, then the rest, when there are two words or more (the
/// service reads them as the rest too in another player's reply); one word
/// alone is the rest, in a reply.
fn speaker_before<'a>(words: &'a [&'a str]) -> (Speaker, &'a [&'a str]) {
    match words {
        [userid, password, more @ ..] => (
            Speaker::Password {
                userid: userid.to_string(),
                password: password.to_string(),
            },
            more,
        ),
        _ => (Speaker::Token, words),
    }
}

fn no_more(rest: &[&str], usage: &'static str) -> Result<(), CommandError> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(error(
            "tournament",
            &format!("unexpected words: \"{}\"", rest.join(" ")),
            usage,
        ))
    }
}

/// The longest event name.
pub const MAX_NAME: usize = 32;

/// An event name: see [`super::name_word`].
fn event_name(word: Option<&&str>, usage: &'static str) -> Result<String, CommandError> {
    super::name_word(word, "tournament", "event", MAX_NAME, usage)
}

fn parse_create(args: &[&str]) -> Result<Create, CommandError> {
    // `<name> <variant> [options]` in a reply: two words before the
    // options, where the other form has four.
    let names = args.iter().take_while(|w| !w.starts_with("--")).count();
    let (speaker, rest) = if names == 2 {
        (Speaker::Token, args)
    } else {
        let (userid, password, rest) = credentials(args, "tournament", CREATE)?;
        (Speaker::Password { userid, password }, rest)
    };
    let name = event_name(rest.first(), CREATE)?;
    let Some(variant) = rest.get(1) else {
        return Err(error("tournament", "the variant is missing", CREATE));
    };
    let mut create = Create {
        speaker,
        name,
        variant: variant.to_string(),
        double: false,
        swiss_rounds: None,
        round_days: None,
        days_per_turn: None,
        nag_days: None,
        forfeit_days: None,
        time: None,
        remind: None,
        vacation_days: None,
        max_entrants: None,
        rated: true,
        closes: None,
        invite_only: false,
        tiebreaks: None,
        min_rating: None,
        max_rating: None,
        public_delay: 0,
        knockout: false,
        match_games: None,
        tie: None,
        groups: None,
        advance: None,
        knockout_final: false,
        position: None,
        opening: None,
    };
    for option in &rest[2..] {
        let lower = option.to_ascii_lowercase();
        let (name, value) = match lower.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (lower.as_str(), None),
        };
        let number = |low: u32, high: u32, what: &str| -> Result<u32, CommandError> {
            let value = value.ok_or_else(|| {
                error(
                    "tournament",
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
                        "tournament",
                        &format!("{name}={value}: give {what} from {low} to {high}"),
                        CREATE,
                    )
                })
        };
        match name {
            "--double" => create.double = true,
            "--swiss" => {
                create.swiss_rounds = Some(number(1, MAX_SWISS_ROUNDS, "a number of rounds")?)
            }
            "--round-days" => create.round_days = Some(number(1, 365, "a number of days")?),
            "--days" => create.days_per_turn = Some(number(1, 365, "a number of days")?),
            "--nag" => create.nag_days = Some(number(1, 365, "a number of days")?),
            "--forfeit" => create.forfeit_days = Some(number(1, 365, "a number of days")?),
            "--time" => {
                create.time = Some(super::options::time_control("tournament", value, CREATE)?)
            }
            "--remind" => {
                create.remind = Some(super::options::reminders("tournament", value, CREATE)?)
            }
            "--vacation" => create.vacation_days = Some(number(0, 365, "a number of days")?),
            "--max" => create.max_entrants = Some(number(3, 1000, "a number of players")?),
            "--rated" => create.rated = true,
            "--unrated" => create.rated = false,
            "--invite-only" => create.invite_only = true,
            "--min-rating" => create.min_rating = Some(number(0, 4000, "a rating")?),
            "--max-rating" => create.max_rating = Some(number(0, 4000, "a rating")?),
            "--public-delay" => {
                create.public_delay = number(0, MAX_PUBLIC_DELAY, "a number of turns")?
            }
            "--closes" => {
                let value = value.unwrap_or_default();
                let date = time::Date::parse(value, format_description!("[year]-[month]-[day]"))
                    .map_err(|_| {
                        error(
                            "tournament",
                            &format!("--closes={value}: give a date as YYYY-MM-DD"),
                            CREATE,
                        )
                    })?;
                create.closes = Some(date);
            }
            "--position" => {
                create.position = Some(super::options::position("tournament", value, CREATE)?)
            }
            "--opening" => {
                create.opening = Some(super::options::opening("tournament", value, CREATE)?)
            }
            "--knockout" => create.knockout = true,
            "--match" => {
                create.match_games = Some(number(1, MAX_MATCH_GAMES, "a number of games")?)
            }
            "--groups" => create.groups = Some(number(2, MAX_GROUPS, "a number of groups")?),
            "--advance" => {
                create.advance = Some(number(1, MAX_ROUND_ROBIN, "a number of players")?)
            }
            "--final" => match value {
                Some("rr") => create.knockout_final = false,
                Some("knockout") => create.knockout_final = true,
                _ => {
                    return Err(error(
                        "tournament",
                        "write --final=rr (a round robin) or --final=knockout",
                        CREATE,
                    ));
                }
            },
            "--tie" => {
                let rule = value
                    .unwrap_or_default()
                    .parse()
                    .map_err(|problem: String| error("tournament", &problem, CREATE))?;
                create.tie = Some(rule);
            }
            "--tiebreaks" => {
                let list = parse_tiebreaks(value.unwrap_or_default())
                    .map_err(|problem| error("tournament", &problem, CREATE))?;
                create.tiebreaks = Some(list);
            }
            _ => {
                return Err(error(
                    "tournament",
                    &format!("unknown option \"{option}\""),
                    CREATE,
                ));
            }
        }
    }
    if create.double && create.swiss_rounds.is_some() {
        return Err(error(
            "tournament",
            "an event is a round robin (--double for two cycles) or a Swiss (--swiss=ROUNDS), not both",
            CREATE,
        ));
    }
    if create.knockout && (create.double || create.swiss_rounds.is_some()) {
        return Err(error(
            "tournament",
            "an event is a round robin, a Swiss or a knockout (--knockout), one of them",
            CREATE,
        ));
    }
    if create.groups.is_some() != create.advance.is_some() {
        return Err(error(
            "tournament",
            "groups need both --groups=G and --advance=K",
            CREATE,
        ));
    }
    let grouped = create.groups.is_some();
    if grouped && (create.knockout || create.swiss_rounds.is_some()) {
        return Err(error(
            "tournament",
            "an event of groups (--groups) is no Swiss and no knockout; for a knockout final write --final=knockout",
            CREATE,
        ));
    }
    if create.knockout_final && !grouped {
        return Err(error(
            "tournament",
            "--final is for events of groups (--groups=G --advance=K)",
            CREATE,
        ));
    }
    let knockout_matches = create.knockout || create.knockout_final;
    if !knockout_matches && (create.match_games.is_some() || create.tie.is_some()) {
        return Err(error(
            "tournament",
            "--match and --tie are for knockout events (--knockout) and knockout finals (--final=knockout)",
            CREATE,
        ));
    }
    if create.round_days.is_some() && create.swiss_rounds.is_none() {
        return Err(error(
            "tournament",
            "--round-days is for Swiss events (--swiss=ROUNDS): a round robin starts every game at once",
            CREATE,
        ));
    }
    if let (Some(low), Some(high)) = (create.min_rating, create.max_rating)
        && low > high
    {
        return Err(error(
            "tournament",
            &format!("--min-rating={low} is above --max-rating={high}"),
            CREATE,
        ));
    }
    Ok(create)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{Command, parse_line};

    fn parsed(line: &str) -> Result<Tournament, CommandError> {
        match parse_line(line).expect("a command line")?.command {
            Command::Tournament(t) => Ok(t),
            other => panic!("not a tournament command: {other:?}"),
        }
    }

    #[test]
    fn create_reads_its_options() {
        let Tournament::Create(c) = parsed(
            "tournament create td pw Spring-Chess2 chess --double --days=3 --vacation=10 --max=8 --closes=2026-04-01 --invite-only --tiebreaks=wins,sb",
        )
        .unwrap() else {
            panic!("create");
        };
        assert_eq!(c.name, "spring-chess2");
        assert!(c.double && c.invite_only);
        assert_eq!(c.days_per_turn, Some(3));
        assert_eq!(c.vacation_days, Some(10));
        assert_eq!(c.max_entrants, Some(8));
        assert_eq!(
            c.tiebreaks,
            Some(vec![Tiebreak::Wins, Tiebreak::SonnebornBerger])
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let problem = |line: &str| parsed(line).unwrap_err().problem;
        assert!(problem("tournament create td pw 9lives chess").contains("not an event name"));
        assert!(problem("tournament create td pw e chess --max=99999999999").contains("--max"));
        assert!(problem("tournament create td pw e chess --double --swiss=5").contains("not both"));
        assert!(problem("tournament adjudicate e td pw 101 2-0 x").contains("2-0"));
        assert!(problem("tournament adjudicate e td pw 101 1-0").contains("reason"));
        assert!(problem("tournament frobnicate e").contains("frobnicate"));
        assert!(problem("tournaments later").contains("later"));
        assert!(problem("tournament enter e alice").contains("password"));
    }

    #[test]
    fn in_a_reply_the_userid_and_password_may_be_left_out() {
        assert_eq!(
            parsed("tournament start Spring").unwrap(),
            Tournament::Start {
                name: "spring".into(),
                director: Speaker::Token
            }
        );
        assert_eq!(
            parsed("tournament start spring td pw").unwrap(),
            Tournament::Start {
                name: "spring".into(),
                director: Speaker::Password {
                    userid: "td".into(),
                    password: "pw".into()
                }
            }
        );
        let Tournament::Create(c) = parsed("tournament create spring chess --double").unwrap()
        else {
            panic!("create");
        };
        assert_eq!(
            (c.speaker, c.name.as_str(), c.double),
            (Speaker::Token, "spring", true)
        );
        let Tournament::Adjudicate {
            director, board, ..
        } = parsed("tournament adjudicate spring 101 1-0 a rook up").unwrap()
        else {
            panic!("adjudicate");
        };
        assert_eq!((director, board), (Speaker::Token, 101));
        let Tournament::Withdraw {
            director, player, ..
        } = parsed("tournament withdraw spring bob --forfeit-all").unwrap()
        else {
            panic!("withdraw");
        };
        assert_eq!((director, player.as_str()), (Speaker::Token, "bob"));
        assert_eq!(
            parsed("tournament invite spring bob").unwrap(),
            Tournament::Invite {
                name: "spring".into(),
                director: Speaker::Token,
                players: vec!["bob".into()]
            }
        );
        // Two words or more are read as a userid and a password first, so
        // that they are never quoted back.
        let line = parse_line("tournament broadcast spring td secret hello")
            .expect("a line")
            .expect("parsed");
        assert_eq!(line.command.passwords(), vec!["secret"]);
        assert_eq!(
            parsed("tournament pgn spring alice pw").unwrap(),
            Tournament::View {
                name: "spring".into(),
                view: View::Pgn,
                speaker: Speaker::Password {
                    userid: "alice".into(),
                    password: "pw".into()
                }
            }
        );
    }

    #[test]
    fn views_and_lists() {
        assert_eq!(
            parsed("tournament crosstable Spring").unwrap(),
            Tournament::View {
                name: "spring".into(),
                view: View::Crosstable,
                speaker: Speaker::Token
            }
        );
    }

    #[test]
    fn public_delay_is_a_number_of_turns() {
        let delay = |line: &str| match parsed(line) {
            Ok(Tournament::Create(c)) => Ok(c.public_delay),
            Ok(other) => panic!("{other:?}"),
            Err(error) => Err(error.problem),
        };
        assert_eq!(delay("tournament create td pw e chess"), Ok(0));
        assert_eq!(
            delay("tournament create td pw e chess --public-delay=2"),
            Ok(2)
        );
        assert!(
            delay("tournament create td pw e chess --public-delay=-1")
                .unwrap_err()
                .contains("--public-delay")
        );
        assert!(delay("tournament create td pw e chess --public-delay=99999").is_err());
        assert!(delay("tournament create td pw e chess --public-delay").is_err());
    }
}
