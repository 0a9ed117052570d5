//! What a mail says: its Subject and the sender's own words read as
//! commands, a turn, and a comment, by one model (docs/players.md, "Where
//! pbem reads commands"):
//!
//! - A reply to a board mail (one carrying a reply token) speaks for that
//!   player on that board. Its first words are a turn or a board command
//!   (`draw`, `accept`, `reject`, `resign`, `decline`, `undo`,
//!   `queue <turn>`, `show`, `pgn`, `if`: the [`InReply::Bare`] words,
//!   each read by its command's home) without board number or password, or any
//!   full command (some without userid and password, [`InReply::WithoutLogin`]).
//!   Whatever follows is a comment.
//! - Any other mail holds full commands, one a line; other lines are a
//!   comment on the board the commands name.
//! - A comment line that looks like a turn, a move, a (misspelled) command
//!   or holds a password of the mail is never forwarded: the comment is
//!   withheld and the sender told why.
//!
//! Reading is pure: no store, no I/O. The service acts on the [`Reading`].

use crate::command::blank::Blanking;
use crate::command::{self, Command, CommandError, InReply, Line, Speaker, Word, split_guard};
use crate::rules::Variant;
use crate::rules::notation::parse_turn;

/// The longest comment kept, in characters.
pub const COMMENT_CHARS: usize = 4000;

/// Commands one mail may hold; the rest are not read (one hostile mail of
/// thousands of commands would otherwise cost thousands of answers' work).
pub const COMMANDS_PER_MAIL: usize = 16;

/// One thing the mail asks for, with the words it was written in.
#[derive(Debug)]
pub enum Item {
    Command(Line),
    /// A line that starts like a command but does not follow its form.
    Malformed(CommandError),
    /// A reply's first words that are neither a turn nor a command but
    /// look like one (`kxd7`, `mvoe 101 ...`): refused, nothing forwarded.
    NotUnderstood(String),
}

/// A mail, read.
#[derive(Debug, Default)]
pub struct Reading {
    /// What the mail asks for, in order, with each line as written.
    pub items: Vec<(String, Item)>,
    /// The comment: the sender's words that are not commands.
    pub comment: Vec<String>,
    /// Why the comment may not be forwarded (the first offending line).
    pub withheld: Option<String>,
    /// Command lines past [`COMMANDS_PER_MAIL`], not read.
    pub unread_commands: usize,
    /// The first misspelled command word of the Subject (when it was not
    /// read as a command) or of the comment, and the command it misspells
    /// (see [`misspelled`]): for an answer that found no command.
    pub misspelled: Option<(String, Word)>,
}

/// Reads a mail. `token_board` is the board of a verified reply token.
pub fn read(subject: &str, lines: &[String], token_board: Option<u32>) -> Reading {
    let mut reading = Reading::default();
    let body_has_command = lines.iter().any(|l| {
        command::parse_line(l).is_some()
            || token_board.is_some_and(|b| bare_command(l, b).is_some() || is_turn(l))
    });
    // The Subject counts only when the body holds no command: then it is a
    // full command, or in a reply a turn. Otherwise it is the topic, and
    // often names the body's command (`signup`, `settings`), which must not
    // act twice nor fail beside it.
    // Whether the Subject was read as a command (else it may hold a
    // misspelled one, for the did-you-mean answer).
    let mut subject_is_command = true;
    // A reply to a confirmation mail brings the code back in its Subject
    // (`confirm <code>`): read beside the body's commands too, and first,
    // so that they may speak for the player it confirms; unless the body
    // confirms itself (a second `confirm` would only fail as a wrong code).
    let is_confirm = |line: &str| {
        matches!(
            command::parse_line(line),
            Some(Ok(Line {
                command: Command::Confirm(_),
                ..
            }))
        )
    };
    let subject_confirms = is_confirm(subject) && !lines.iter().any(|l| is_confirm(l));
    match command::parse_line(subject) {
        Some(Ok(line)) if subject_confirms => reading.push(subject, Item::Command(line)),
        _ if body_has_command => {}
        Some(Ok(line)) => reading.push(subject, Item::Command(line)),
        Some(Err(error)) => reading.push(subject, Item::Malformed(error)),
        None => {
            if let Some(board) = token_board
                && let Some(item) = reply_command(subject, board)
            {
                reading.push(subject, item);
            } else {
                subject_is_command = false;
            }
        }
    }
    let mut commands_end = token_board.is_none();
    // `commands_end`: past a reply's first words (always, in other mail).
    for (index, line) in lines.iter().enumerate() {
        if !commands_end {
            // A reply: its first words are commands or a turn.
            let board = token_board.expect("only replies read bare commands");
            if line.is_empty() {
                continue;
            }
            if let Some(item) = reply_command(line, board) {
                let already_a_turn = matches!(
                    &item,
                    Item::Command(Line {
                        command: Command::Move(_),
                        ..
                    })
                ) && reading.items.iter().any(|(_, i)| {
                    matches!(
                        i,
                        Item::Command(Line {
                            command: Command::Move(_),
                            ..
                        })
                    )
                });
                if !already_a_turn {
                    reading.push(line, item);
                    continue;
                }
            }
            commands_end = true;
            if reading.items.is_empty() && suspicious(line, &[]).is_some() {
                reading.push(line, Item::NotUnderstood(line.clone()));
                reading.comment.extend(lines[index + 1..].iter().cloned());
                break;
            }
        } else {
            match command::parse_line(line) {
                Some(Ok(parsed)) => {
                    reading.push(line, Item::Command(parsed));
                    continue;
                }
                Some(Err(error)) => {
                    reading.push(line, Item::Malformed(error));
                    continue;
                }
                None => {}
            }
        }
        reading.comment.push(line.clone());
    }
    // A bare action word may carry a comment after it on its line.
    if let Some(board) = token_board {
        for (written, item) in &reading.items {
            // The words after it are a comment when they did not change
            // the command (`draw, as you like`), unlike a queued turn.
            if let Item::Command(Line { command, .. }) = item
                && command.board() == Some(board)
                && let Some((word, rest)) = bare_with_rest(written)
                && !rest.is_empty()
                && word.in_reply("", board).as_ref() == Some(command)
            {
                reading.comment.insert(0, rest.to_string());
            }
        }
    }
    while reading.comment.last().is_some_and(String::is_empty) {
        reading.comment.pop();
    }
    while reading.comment.first().is_some_and(String::is_empty) {
        reading.comment.remove(0);
    }
    let passwords: Vec<String> = reading
        .items
        .iter()
        .filter_map(|(_, item)| match item {
            Item::Command(line) => Some(line.command.passwords()),
            _ => None,
        })
        .flatten()
        .map(str::to_string)
        .collect();
    let blanking = Blanking::of_secrets(passwords.clone());
    reading.withheld = reading.comment.iter().find_map(|line| {
        suspicious(line, &passwords).map(|why| match why {
            // Never echoed: the answer goes to a From that may be forged.
            HOLDS_PASSWORD => format!("of your comment that {why}"),
            LOOKS_LIKE_COMMAND => match misspelled_strictly(line) {
                Some((_, word)) => format!(
                    "\"{}\" {why} (did you mean \"{}\"?)",
                    blanking.line(line),
                    word.name()
                ),
                None => format!("\"{}\" {why}", blanking.line(line)),
            },
            _ => format!("\"{}\" {why}", blanking.line(line)),
        })
    });
    // Where a line stands as a command would, it is the likelier one;
    // otherwise the first line that begins with a misspelled word.
    let subject = (!subject_is_command).then_some(subject);
    let candidates = || {
        subject
            .into_iter()
            .chain(reading.comment.iter().map(String::as_str))
    };
    reading.misspelled = candidates()
        .find_map(misspelled_strictly)
        .or_else(|| candidates().find_map(misspelled))
        .map(|(written, word)| (written.to_string(), word));
    reading
}

impl Reading {
    fn push(&mut self, written: &str, item: Item) {
        if self.items.len() >= COMMANDS_PER_MAIL {
            self.unread_commands += 1;
        } else {
            self.items.push((written.to_string(), item));
        }
    }
}

/// A reply line read as a command on the reply's board: a full command, a
/// bare board command, or a turn.
fn reply_command(line: &str, board: u32) -> Option<Item> {
    if let Some(line) = bare_command(line, board) {
        return Some(Item::Command(line));
    }
    match command::parse_line(line) {
        Some(Ok(parsed)) => return Some(Item::Command(parsed)),
        Some(Err(error)) => return Some(Item::Malformed(error)),
        None => {}
    }
    let written = turn_text(line);
    is_turn(&written).then(|| {
        let (turn, guard) = split_guard(&written);
        Item::Command(Line {
            variant: None,
            command: Command::Move(command::MoveTurn {
                board,
                speaker: Speaker::Token,
                turn,
                guard,
            }),
        })
    })
}

/// The board commands a reply may hold without board number or password
/// (those whose definition gives [`InReply::Bare`]), as each command's
/// home reads its reply form.
fn bare_command(line: &str, board: u32) -> Option<Line> {
    let (word, rest) = bare_with_rest(line)?;
    word.in_reply(rest, board).map(|command| Line {
        variant: None,
        command,
    })
}

/// A line's first word when it is a bare board command word (`draw`,
/// `Resign.`), and the rest of the line; `None` when the word
/// is followed by a board number (then it is a full command).
fn bare_with_rest(line: &str) -> Option<(Word, &str)> {
    let line = line.trim();
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    let word = Word::from_text(line[..end].trim_end_matches(['.', '!', '?', ',', ';', ':']))
        .filter(|word| word.definition().in_reply == InReply::Bare)?;
    let rest = line[end..].trim();
    let first_rest = rest.split_whitespace().next().unwrap_or("");
    let board_follows = first_rest.trim_start_matches('#').parse::<u32>().is_ok();
    (!board_follows).then_some((word, rest))
}

/// A turn as a reply writes it, without the trailing punctuation and
/// space of a sentence (`e5.`).
pub(super) fn turn_text(line: &str) -> String {
    line.trim()
        .trim_end_matches(['.', ';', ','])
        .trim_end()
        .to_string()
}

/// Whether a line reads as a turn.
pub fn is_turn(line: &str) -> bool {
    if line.len() > 200 {
        return false;
    }
    let (turn, _) = split_guard(&turn_text(line));
    !turn.is_empty() && parse_turn(&turn).is_ok_and(|moves| !moves.is_empty())
}

const HOLDS_PASSWORD: &str = "holds your password";
const LOOKS_LIKE_COMMAND: &str = "looks like a command";

/// Why a line may not be forwarded to other players, if it may not: it
/// looks like a turn, a move or a command (perhaps misspelled), or holds
/// one of `passwords`.
pub fn suspicious(line: &str, passwords: &[String]) -> Option<&'static str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.iter().any(|w| {
        passwords
            .iter()
            .any(|p| !p.is_empty() && w.contains(p.as_str()))
    }) {
        return Some(HOLDS_PASSWORD);
    }
    if looks_like_command(&words) {
        return Some(LOOKS_LIKE_COMMAND);
    }
    if is_turn(line) || words.iter().flat_map(|w| w.split(',')).any(looks_like_move) {
        return Some("looks like a move");
    }
    None
}

/// A command word, or a near miss of one (`mvoe`, `resing`) that stands
/// alone or before a number or a move.
fn looks_like_command(words: &[&str]) -> bool {
    let Some(first) = words.first() else {
        return false;
    };
    if Word::near(first).is_none() {
        return false;
    }
    // A command's own word before what its command reads as prose
    // (`If you agree, ...`, `Note that ...`) is prose; `if e5 Nf3` and
    // `note 101 ...` are not.
    if let Some(word) = Word::from_text(first.trim_end_matches(['.', '!', ',', ';', ':'])) {
        return !word.is_prose(&words[1..]);
    }
    words.get(1).is_none_or(|second| {
        second.trim_start_matches('#').parse::<u32>().is_ok() || looks_like_move(second)
    })
}

/// A line that begins with a misspelled command word (`mvoe 101 ...`,
/// `chess2 challnge alice ...`): the word as written and the one command
/// it is nearest to ([`Word::suggestion`]). Only the word is returned: the
/// rest of the line may hold a password.
pub fn misspelled(line: &str) -> Option<(&str, Word)> {
    let (first, _) = command_words(line)?;
    Word::suggestion(first).map(|word| (first, word))
}

/// [`misspelled`], where the word stands as a command's would: alone or
/// before a number or a move (`mvoe 101`, `shwo`), so that prose (`Drew
/// up a plan`) is none.
fn misspelled_strictly(line: &str) -> Option<(&str, Word)> {
    let (first, next) = command_words(line)?;
    let word = Word::suggestion(first)?;
    next.is_none_or(|next| {
        next.trim_start_matches('#').parse::<u32>().is_ok() || looks_like_move(next)
    })
    .then_some((first, word))
}

/// The word a command line would begin with (after a variant name, which
/// may stand before it), and the word after that.
fn command_words(line: &str) -> Option<(&str, Option<&str>)> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let second = words.next();
    Some(match second {
        Some(second) if first.parse::<Variant>().is_ok() => (second, words.next()),
        _ => (first, second),
    })
}

/// Whether a word looks like one move in any common notation, in any case
/// (`Nf6`, `nf6`, `kxd7`, `exd5`, `e2-e4`, `e2e4`, `O-O`, `e8=Q+`).
fn looks_like_move(word: &str) -> bool {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '=');
    let lower = word.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "o-o" | "0-0" | "o-o-o" | "0-0-0" | "oo" | "ooo"
    ) {
        return true;
    }
    let bytes: Vec<u8> = lower.bytes().filter(|b| !b"x:-".contains(b)).collect();
    let bytes = match bytes.iter().position(|&b| b == b'=') {
        Some(at) if at + 2 == bytes.len() && b"qrbn".contains(&bytes[at + 1]) => &bytes[..at],
        Some(_) => return false,
        None => &bytes[..],
    };
    let bytes = match bytes.first() {
        Some(b'k' | b'q' | b'r' | b'n' | b'p') => &bytes[1..],
        // `b` is a file as well as the bishop: both readings are moves.
        _ => bytes,
    };
    let square =
        |s: &[u8]| s.len() == 2 && (b'a'..=b'h').contains(&s[0]) && (b'1'..=b'8').contains(&s[1]);
    match bytes.len() {
        2 => square(bytes),
        3 => {
            square(&bytes[1..]) && (bytes[0].is_ascii_digit() || (b'a'..=b'h').contains(&bytes[0]))
        }
        4 => {
            square(&bytes[2..])
                && (square(&bytes[..2]) || (b'a'..=b'h').contains(&bytes[1]) && bytes[0] == b'b')
        }
        _ => false,
    }
}

/// `Re: Chess2 Board 101 bob` -> `Chess2 Board 101 bob`.
pub fn strip_reply_prefixes(subject: &str) -> &str {
    let mut rest = subject.trim();
    loop {
        let lower = rest.to_ascii_lowercase();
        let stripped = ["re:", "fwd:", "fw:", "aw:", "sv:", "antw:"]
            .iter()
            .find(|prefix| lower.starts_with(*prefix))
            .map(|prefix| rest[prefix.len()..].trim_start());
        match stripped {
            Some(next) => rest = next,
            None => return rest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::If;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_reply_begins_with_a_turn_or_a_bare_command_and_the_rest_is_a_comment() {
        let reading = read(
            "Chess Board 101 bob",
            &lines("Nf6,d5.\nNice game"),
            Some(101),
        );
        assert!(matches!(
            &reading.items[..],
            [(_, Item::Command(Line { command: Command::Move(m), .. }))] if m.turn == "Nf6,d5"
        ));
        assert_eq!(reading.comment, ["Nice game"]);
        assert_eq!(reading.withheld, None);

        let reading = read("Re: x", &lines("Draw. Well played\nreally"), Some(101));
        assert!(matches!(
            &reading.items[..],
            [(_, Item::Command(Line { command: Command::Draw(a), .. }))]
                if a.board == 101
        ));
        assert_eq!(reading.comment, ["Well played", "really"]);
    }

    #[test]
    fn a_confirm_subject_is_read_first_beside_the_body_commands_once() {
        let reading = read("confirm ABCDEFGH23", &lines("settings"), None);
        assert!(matches!(
            &reading.items[..],
            [
                (
                    _,
                    Item::Command(Line {
                        command: Command::Confirm(_),
                        ..
                    })
                ),
                (
                    _,
                    Item::Command(Line {
                        command: Command::Settings(_),
                        ..
                    })
                ),
            ]
        ));
        // Another Subject beside the body's commands is only the topic.
        let reading = read("settings alice pw", &lines("settings"), None);
        assert_eq!(reading.items.len(), 1);
        // A body that confirms itself is not confirmed twice.
        let reading = read(
            "confirm ABCDEFGH23",
            &lines("confirm ABCDEFGH23\nsettings"),
            None,
        );
        assert_eq!(reading.items.len(), 2);
    }

    #[test]
    fn if_lines_in_a_reply_are_commands_and_if_in_prose_is_a_comment() {
        let reading = read(
            "Re: x",
            &lines("e4\nif e5 Nf3\nif clear\nIf you agree, fine."),
            Some(101),
        );
        assert!(
            matches!(
                &reading.items[..],
                [
                    (_, Item::Command(Line { command: Command::Move(_), .. })),
                    (_, Item::Command(Line { command: Command::If(If { what: command::IfWhat::Line(line), board: 101, .. }), .. })),
                    (_, Item::Command(Line { command: Command::If(If { what: command::IfWhat::Clear, .. }), .. })),
                ] if line == "e5 Nf3"
            ),
            "{reading:?}"
        );
        assert_eq!(reading.comment, ["If you agree, fine."]);
        assert_eq!(reading.withheld, None);
        // In other mail the prose is a comment too, and a line without its
        // board is refused, never passed on.
        let reading = read("x", &lines("If you agree, fine.\nif e5 Nf3"), None);
        assert!(
            matches!(&reading.items[..], [(_, Item::Malformed(_))]),
            "{reading:?}"
        );
        assert_eq!(reading.comment, ["If you agree, fine."]);
    }

    #[test]
    fn what_looks_like_a_turn_is_never_a_comment() {
        // Lenient notation (lowercase piece letters) reads `kxd7` as a turn.
        let reading = read("Re: x", &lines("kxd7"), Some(101));
        assert!(
            matches!(
                &reading.items[..],
                [(_, Item::Command(Line { command: Command::Move(m), .. }))] if m.turn == "kxd7"
            ),
            "{reading:?}"
        );
        for text in ["Qxdd7", "e5 Nf6", "mvoe 101 bob hunter2 Kxc6", "resing"] {
            let reading = read("Re: x", &lines(text), Some(101));
            assert!(
                matches!(&reading.items[..], [(_, Item::NotUnderstood(_))]),
                "{text}: {reading:?}"
            );
        }
        let reading = read("Re: x", &lines("e4\nthen I play Nf3"), Some(101));
        assert!(reading.withheld.is_some(), "{reading:?}");
        let reading = read(
            "x",
            &lines("move 101 alice s3cret e4\nmy s3cret plan"),
            None,
        );
        assert_eq!(
            reading.withheld.as_deref(),
            Some("of your comment that holds your password")
        );
        let reading = read("Re: x", &lines("Love you, see you at 10"), Some(101));
        assert!(
            reading.items.is_empty() && reading.withheld.is_none(),
            "{reading:?}"
        );
    }

    #[test]
    fn a_misspelled_command_word_is_found_at_the_start_of_a_line() {
        let strictly = misspelled_strictly;
        assert_eq!(
            strictly("mvoe 101 bob hunter2 Kxc6"),
            Some(("mvoe", Word::Move))
        );
        assert_eq!(strictly("Shwo"), Some(("Shwo", Word::Show)));
        assert_eq!(strictly("resing #101"), Some(("resing", Word::Resign)));
        assert_eq!(strictly("mvoe e4"), Some(("mvoe", Word::Move)));
        assert_eq!(strictly("chess2 shwo 101"), Some(("shwo", Word::Show)));
        // Where a command would not stand so: only loosely.
        assert_eq!(strictly("chess2 challnge alice pw bob"), None);
        assert_eq!(
            misspelled("chess2 challnge alice pw bob"),
            Some(("challnge", Word::Challenge))
        );
        assert_eq!(strictly("Drew up a plan"), None);
        // Commands, ties and words near nothing are no misspelling.
        for line in [
            "move 101 bob pw e4",
            "ratins 5",
            "Hello there",
            "chess2",
            "",
        ] {
            assert_eq!(misspelled(line), None, "{line}");
        }
    }

    #[test]
    fn the_reading_names_a_misspelling_of_the_subject_or_the_comment_only() {
        let reading = read("mvoe 101 bob pw e4", &[], None);
        assert_eq!(reading.misspelled, Some(("mvoe".to_string(), Word::Move)));
        let reading = read("Hello", &lines("Good game!\nshwo 101"), None);
        assert_eq!(reading.misspelled, Some(("shwo".to_string(), Word::Show)));
        // A line that stands as a command would wins over prose before it.
        let reading = read("Hello", &lines("Drew here.\nresing 101 bob pw"), None);
        assert_eq!(
            reading.misspelled,
            Some(("resing".to_string(), Word::Resign))
        );
        let reading = read("Hello", &lines("Dear pbem,\nchalenge alice pw bob"), None);
        assert_eq!(
            reading.misspelled,
            Some(("chalenge".to_string(), Word::Challenge))
        );
        // A Subject read as a command is no misspelling, nor is a command.
        let reading = read("show 101", &lines("games alice"), None);
        assert_eq!(reading.misspelled, None);
        // The withheld comment says which command it looks like.
        let reading = read("x", &lines("games alice\nmvoe 101 bob hunter2 e4"), None);
        let withheld = reading.withheld.expect("withheld");
        assert!(withheld.contains("(did you mean \"move\"?)"), "{withheld}");
        assert!(!withheld.contains("hunter2"), "{withheld}");
    }

    #[test]
    fn a_subject_naming_the_command_of_the_body_is_no_second_command() {
        let reading = read("signup", &lines("signup alice pw"), None);
        assert_eq!(reading.items.len(), 1, "{reading:?}");
        let reading = read("e4", &[], Some(101));
        assert_eq!(reading.items.len(), 1, "a turn in the Subject of a reply");
    }

    #[test]
    fn the_subject_is_a_command_only_when_the_body_holds_none() {
        // The same command in the Subject and the body is read once.
        let reading = read("help", &lines("help"), None);
        assert_eq!(reading.items.len(), 1, "{reading:?}");
        // A Subject word that is a command of its own (`settings`, which
        // needs no login in some mail) is not read beside the body's.
        let reading = read("settings", &lines("settings alice alice-pw"), None);
        assert!(
            matches!(&reading.items[..], [(written, Item::Command(_))] if written == "settings alice alice-pw"),
            "{reading:?}"
        );
        // In a reply too: the body's turn, not the Subject's command.
        let reading = read("draw", &lines("e4"), Some(101));
        assert!(
            matches!(
                &reading.items[..],
                [(
                    _,
                    Item::Command(Line {
                        command: Command::Move(_),
                        ..
                    })
                )]
            ),
            "{reading:?}"
        );
        // A body without a command leaves the Subject to be read.
        let reading = read("help", &lines("Thanks for the game!"), None);
        assert_eq!(reading.items.len(), 1, "{reading:?}");
    }

    #[test]
    fn at_most_so_many_commands_are_read() {
        let body = lines(&"help\n".repeat(52_000));
        let reading = read("x", &body, None);
        assert_eq!(reading.items.len(), COMMANDS_PER_MAIL);
        assert_eq!(reading.unread_commands, 52_000 - COMMANDS_PER_MAIL);
    }

    #[test]
    fn moves_are_told_from_words() {
        for word in [
            "e4", "Nf6", "nf6", "kxd7", "exd5", "e2-e4", "e2e4", "O-O", "o-o-o", "e8=Q", "Bxe4+",
            "Nbd7",
        ] {
            assert!(looks_like_move(word), "{word}");
        }
        for word in ["hello", "be", "at", "10", "a", "the", "game", "draw"] {
            assert!(!looks_like_move(word), "{word}");
        }
    }
}
