//! The one definition of every command: its words, its forms (the usage
//! text, where its passwords stand, an example), how it works in a reply
//! to a board mail, whether it names a board, and the fixed words of its
//! grammar. The parser dispatches on [`Word`], the password blanking
//! ([`super::blank`]) reads the password places, the reply reader the
//! reply forms, and a test checks that `help` names every word.
//!
//! A new command is a new [`Word`]: every `match` over the words is
//! exhaustive, so the compiler asks for its definition, its parser and
//! its place in the reply reader.

use super::{account, board, conditional, extend, info, ladder, preferences, ratings, tournament};

/// Every command word (aliases are spellings of one word).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Word {
    Signup,
    Password,
    Address,
    Help,
    Games,
    Challenge,
    Move,
    Show,
    History,
    Pgn,
    Resign,
    Draw,
    Accept,
    Reject,
    Undo,
    Decline,
    Queue,
    If,
    Subscribe,
    Unsubscribe,
    Chat,
    Extend,
    Vacation,
    Confirm,
    Tournament,
    Tournaments,
    Ladder,
    Ladders,
    Ratings,
    Rating,
    Set,
    Settings,
}

/// How a command works in a reply to a mail pbem sent the player (a board
/// mail's reply token names the player and the board; another mail's, the
/// player only). Every command also works in a reply written in full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InReply {
    /// Only written in full.
    Full,
    /// Also without userid and password (`set board compact`, `settings`,
    /// `vacation 10`, `challenge bob`; `password <new>` without the old).
    WithoutLogin,
    /// Also as its word alone (and a turn after `queue`), without board
    /// number, userid or password: `draw`, `show`, `queue e5`.
    Bare,
    /// As the turn alone (`move`).
    Turn,
    /// As the words after the first ones (`chat`): the comment.
    Comment,
}

/// One form of a command.
#[derive(Clone, Copy, Debug)]
pub struct Form {
    /// The form as `help` and error answers write it.
    pub usage: &'static str,
    /// The sub-command words this form is for (`tournament enter`); empty
    /// for a command without sub-commands.
    pub sub: &'static [&'static str],
    /// Where its passwords stand: the places of the words after the
    /// command word (1 is the first word after it).
    pub passwords: &'static [usize],
    /// A well-formed line of this form with only the words it needs
    /// (the tests parse it; a mistaken line of a form without password
    /// is blanked after as many words).
    pub example: &'static str,
}

/// Everything about one command.
#[derive(Clone, Copy, Debug)]
pub struct Definition {
    /// Its spellings, lowercase; the first is its name.
    pub words: &'static [&'static str],
    pub forms: &'static [Form],
    pub in_reply: InReply,
    /// Whether the command acts on or shows one board (its number is in
    /// the line, or the reply's board).
    pub names_board: bool,
    /// The fixed words of its grammar besides the command word
    /// (sub-commands, options, preference names and values), lowercase:
    /// never a password in a line's blanked quote. An option taking a
    /// value is listed as `--name=`.
    pub fixed: &'static [&'static str],
}

/// A form (a struct literal, so that the table's slices are static).
macro_rules! form {
    ($usage:expr, $passwords:expr, $example:expr $(,)?) => {
        Form {
            usage: $usage,
            sub: &[],
            passwords: $passwords,
            example: $example,
        }
    };
}

/// A form of some sub-commands.
macro_rules! sub_form {
    ($usage:expr, $sub:expr, $passwords:expr, $example:expr $(,)?) => {
        Form {
            usage: $usage,
            sub: $sub,
            passwords: $passwords,
            example: $example,
        }
    };
}

const fn definition(
    words: &'static [&'static str],
    forms: &'static [Form],
    in_reply: InReply,
    names_board: bool,
    fixed: &'static [&'static str],
) -> Definition {
    Definition {
        words,
        forms,
        in_reply,
        names_board,
        fixed,
    }
}

const SET_FIXED: &[&str] = &[
    "board", "mail", "pgn", "ascii", "compact", "html", "every", "digest", "on", "off",
];
const TOURNAMENT_FIXED: &[&str] = &[
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
    "--forfeit-all",
    "--keep-played",
    "1-0",
    "0-1",
    "1/2-1/2",
    "½-½",
    "cancel",
];

const LADDER_FIXED: &[&str] = &[
    "create",
    "join",
    "leave",
    "challenge",
    "show",
    "--reach=",
    "--open=",
    "--time=",
    "--days=",
];

impl Word {
    /// Every word, in the order `help` lists them.
    pub const ALL: [Word; 32] = [
        Word::Signup,
        Word::Confirm,
        Word::Password,
        Word::Address,
        Word::Help,
        Word::Games,
        Word::Challenge,
        Word::Move,
        Word::Show,
        Word::History,
        Word::Pgn,
        Word::Resign,
        Word::Draw,
        Word::Accept,
        Word::Reject,
        Word::Undo,
        Word::Decline,
        Word::Queue,
        Word::If,
        Word::Subscribe,
        Word::Unsubscribe,
        Word::Chat,
        Word::Extend,
        Word::Vacation,
        Word::Ratings,
        Word::Rating,
        Word::Set,
        Word::Settings,
        Word::Tournament,
        Word::Tournaments,
        Word::Ladder,
        Word::Ladders,
    ];

    /// The command's definition.
    pub const fn definition(self) -> Definition {
        match self {
            Word::Signup => definition(
                &["signup"],
                &[form!(
                    account::SIGNUP,
                    &[2],
                    "signup alice alice-pw alice@example.org"
                )],
                InReply::Full,
                false,
                &[],
            ),
            Word::Password => definition(
                &["password"],
                &[
                    form!(account::PASSWORD, &[2, 3], "password alice old-pw new-pw"),
                    form!(account::PASSWORD, &[1], "password new-pw"),
                ],
                InReply::WithoutLogin,
                false,
                &[],
            ),
            Word::Address => definition(
                &["address"],
                &[
                    form!(
                        account::ADDRESS,
                        &[2],
                        "address alice alice-pw alice@example.org"
                    ),
                    form!(account::ADDRESS, &[], "address alice@example.org"),
                ],
                InReply::WithoutLogin,
                false,
                &[],
            ),
            Word::Vacation => definition(
                &["vacation"],
                &[
                    form!(account::VACATION, &[2], "vacation alice alice-pw 10"),
                    form!(account::VACATION, &[], "vacation 10"),
                ],
                InReply::WithoutLogin,
                false,
                &[],
            ),
            Word::Confirm => definition(
                &["confirm"],
                &[form!(account::CONFIRM, &[], "confirm K7QX2M")],
                InReply::Full,
                false,
                &[],
            ),
            Word::Help => definition(
                &["help"],
                &[form!(info::HELP, &[], "help chess2")],
                InReply::Full,
                false,
                &["list", "variants"],
            ),
            Word::Games => definition(
                &["games"],
                &[form!(info::GAMES, &[], "games alice")],
                InReply::Full,
                false,
                &["active", "next", "all"],
            ),
            Word::Show => definition(
                &["show"],
                &[form!(info::SHOW, &[], "show 101#3")],
                InReply::Bare,
                true,
                &["compact"],
            ),
            Word::History => definition(
                &["history"],
                &[form!(info::HISTORY, &[], "history 101")],
                InReply::Full,
                true,
                &[],
            ),
            Word::Pgn => definition(
                &["pgn"],
                &[form!(info::PGN, &[], "pgn 101")],
                InReply::Bare,
                true,
                &[],
            ),
            Word::Challenge => definition(
                &["challenge"],
                &[
                    form!(
                        board::CHALLENGE,
                        &[2],
                        "challenge alice alice-pw bob --white --days=3",
                    ),
                    form!(board::CHALLENGE, &[], "challenge bob --white"),
                ],
                InReply::WithoutLogin,
                false,
                &[
                    "--white",
                    "--black",
                    "--random",
                    "--unrated",
                    "--days=",
                    "--nag=",
                    "--forfeit=",
                    "--time=",
                    "--remind=",
                    "--private",
                ],
            ),
            Word::Move => definition(
                &["move"],
                &[form!(board::MOVE, &[3], "move 101 alice alice-pw e4#1")],
                InReply::Turn,
                true,
                &[],
            ),
            Word::Queue => definition(
                &["queue"],
                &[form!(board::QUEUE, &[3], "queue 101 alice alice-pw Nf3")],
                InReply::Bare,
                true,
                &[],
            ),
            Word::If => definition(
                &["if"],
                &[
                    form!(conditional::IF, &[3], "if 101 alice alice-pw e5 Nf3"),
                    form!(conditional::IF, &[3], "if 101 alice alice-pw clear"),
                ],
                InReply::Bare,
                true,
                &["clear"],
            ),
            Word::Resign => definition(
                &["resign"],
                &[form!(board::ACTION, &[3], "resign 101 alice alice-pw")],
                InReply::Bare,
                true,
                &[],
            ),
            Word::Draw => definition(
                &["draw"],
                &[form!(board::ACTION, &[3], "draw 101 alice alice-pw")],
                InReply::Bare,
                true,
                &[],
            ),
            Word::Accept => definition(
                &["accept"],
                &[form!(board::ACTION, &[3], "accept 101 alice alice-pw")],
                InReply::Bare,
                true,
                &[],
            ),
            Word::Reject => definition(
                &["reject"],
                &[form!(board::ACTION, &[3], "reject 101 alice alice-pw")],
                InReply::Bare,
                true,
                &[],
            ),
            Word::Undo => definition(
                &["undo"],
                &[form!(board::ACTION, &[3], "undo 101 alice alice-pw")],
                InReply::Bare,
                true,
                &[],
            ),
            Word::Decline => definition(
                &["decline"],
                &[form!(board::ACTION, &[3], "decline 101 alice alice-pw")],
                InReply::Bare,
                true,
                &[],
            ),
            Word::Subscribe => definition(
                &["subscribe"],
                &[form!(board::SUBSCRIBE, &[3], "subscribe 101 ann ann-pw")],
                InReply::Full,
                true,
                &[],
            ),
            Word::Unsubscribe => definition(
                &["unsubscribe"],
                &[
                    form!(board::SUBSCRIBE, &[3], "unsubscribe 101 ann ann-pw"),
                    form!(board::SUBSCRIBE, &[], "unsubscribe 101 ann@example.org"),
                ],
                InReply::Full,
                true,
                &[],
            ),
            Word::Chat => definition(
                &["chat"],
                &[form!(
                    board::CHAT,
                    &[3],
                    "chat 101 alice alice-pw good luck"
                )],
                InReply::Comment,
                true,
                &[],
            ),
            Word::Extend => definition(
                &["extend"],
                &[
                    form!(extend::EXTEND, &[3], "extend 101 alice alice-pw 2"),
                    form!(extend::EXTEND, &[], "extend 2"),
                ],
                InReply::WithoutLogin,
                true,
                &[],
            ),
            Word::Ratings => definition(
                &["ratings", "standings"],
                &[form!(ratings::RATINGS, &[], "ratings chess2")],
                InReply::Full,
                false,
                &[],
            ),
            Word::Rating => definition(
                &["rating"],
                &[form!(ratings::RATING, &[], "rating alice")],
                InReply::Full,
                false,
                &[],
            ),
            Word::Set => definition(
                &["set"],
                &[
                    form!(preferences::SET, &[2], "set alice alice-pw board compact"),
                    form!(preferences::SET, &[], "set mail digest"),
                ],
                InReply::WithoutLogin,
                false,
                SET_FIXED,
            ),
            Word::Settings => definition(
                &["settings"],
                &[
                    form!(preferences::SETTINGS, &[2], "settings alice alice-pw"),
                    form!(preferences::SETTINGS, &[], "settings"),
                ],
                InReply::WithoutLogin,
                false,
                &[],
            ),
            Word::Tournament => definition(
                &["tournament"],
                &[
                    sub_form!(
                        tournament::CREATE,
                        &["create"],
                        &[3],
                        "tournament create td td-pw spring chess --double --days=3",
                    ),
                    sub_form!(
                        tournament::ENTER,
                        &["enter", "leave"],
                        &[4],
                        "tournament enter spring alice alice-pw",
                    ),
                    sub_form!(
                        tournament::INVITE,
                        &["invite"],
                        &[4],
                        "tournament invite spring td td-pw bob carol",
                    ),
                    sub_form!(
                        tournament::START,
                        &["start"],
                        &[4],
                        "tournament start spring td td-pw",
                    ),
                    sub_form!(
                        tournament::WITHDRAW,
                        &["withdraw"],
                        &[4],
                        "tournament withdraw spring td td-pw bob --forfeit-all",
                    ),
                    sub_form!(
                        tournament::ADJUDICATE,
                        &["adjudicate"],
                        &[4],
                        "tournament adjudicate spring td td-pw 101 1-0 bob left",
                    ),
                    sub_form!(
                        tournament::BROADCAST,
                        &["broadcast"],
                        &[4],
                        "tournament broadcast spring td td-pw round two starts",
                    ),
                    sub_form!(
                        tournament::VIEW,
                        &["show", "standings", "crosstable", "pgn", "trf"],
                        &[],
                        "tournament crosstable spring",
                    ),
                ],
                InReply::WithoutLogin,
                false,
                TOURNAMENT_FIXED,
            ),
            Word::Tournaments => definition(
                &["tournaments"],
                &[form!(tournament::LIST, &[], "tournaments running")],
                InReply::Full,
                false,
                &["open", "running", "finished", "all"],
            ),
            Word::Ladder => definition(
                &["ladder"],
                &[
                    sub_form!(
                        ladder::CREATE,
                        &["create"],
                        &[3],
                        "ladder create owner owner-pw top chess --reach=3 --open=2 --days=3",
                    ),
                    sub_form!(
                        ladder::JOIN,
                        &["join", "leave"],
                        &[4],
                        "ladder join top alice alice-pw",
                    ),
                    sub_form!(
                        ladder::CHALLENGE,
                        &["challenge"],
                        &[4],
                        "ladder challenge top alice alice-pw bob",
                    ),
                    sub_form!(ladder::SHOW, &["show"], &[], "ladder show top"),
                ],
                InReply::WithoutLogin,
                false,
                LADDER_FIXED,
            ),
            Word::Ladders => definition(
                &["ladders"],
                &[form!(ladder::LIST, &[], "ladders")],
                InReply::Full,
                false,
                &[],
            ),
        }
    }

    /// The command's name (its first spelling).
    pub const fn name(self) -> &'static str {
        self.definition().words[0]
    }

    /// The word `text` spells, any case.
    pub fn from_text(text: &str) -> Option<Word> {
        Word::ALL.into_iter().find(|word| {
            word.definition()
                .words
                .iter()
                .any(|spelling| spelling.eq_ignore_ascii_case(text))
        })
    }

    /// The word `text` is, or is a near miss of (one typo in a word of
    /// four letters or more, two from seven; trailing punctuation aside).
    pub fn near(text: &str) -> Option<Word> {
        let text = without_punctuation(text);
        if let Some(exact) = Word::from_text(&text) {
            return Some(exact);
        }
        let typos = typos_allowed(&text)?;
        Word::ALL
            .into_iter()
            .find(|word| word.distance(&text) <= typos)
    }

    /// The command `text` misspells, to suggest in an answer ("did you
    /// mean `move`?"): a near miss (as [`Word::near`] reads one) that is
    /// closer to this command than to any other. `None` for a command word
    /// itself, for a word near no command, and for one as near to two
    /// commands (`ratins`: `rating` or `ratings`), where a guess would
    /// mislead.
    pub fn suggestion(text: &str) -> Option<Word> {
        let text = without_punctuation(text);
        if Word::from_text(&text).is_some() {
            return None;
        }
        let typos = typos_allowed(&text)?;
        let mut closest: Option<(usize, Word)> = None;
        let mut tied = false;
        for word in Word::ALL {
            let distance = word.distance(&text);
            match closest {
                _ if distance > typos => {}
                Some((best, _)) if distance > best => {}
                Some((best, _)) if distance == best => tied = true,
                _ => {
                    closest = Some((distance, word));
                    tied = false;
                }
            }
        }
        closest.filter(|_| !tied).map(|(_, word)| word)
    }

    /// The fewest typos between `text` (lowercase) and a spelling of the
    /// command.
    fn distance(self, text: &str) -> usize {
        self.definition()
            .words
            .iter()
            .map(|spelling| typo_distance(text, spelling))
            .min()
            .unwrap_or(usize::MAX)
    }

    /// The forms a line of this command may be meant as, by its word
    /// after the command word (the sub-command): those for that
    /// sub-command, or every form when it names none.
    pub fn forms_for(self, sub: Option<&str>) -> Vec<Form> {
        let forms = self.definition().forms;
        let chosen: Vec<Form> = forms
            .iter()
            .filter(|form| {
                sub.is_some_and(|sub| form.sub.iter().any(|s| s.eq_ignore_ascii_case(sub)))
            })
            .copied()
            .collect();
        if chosen.is_empty() {
            forms.to_vec()
        } else {
            chosen
        }
    }

    /// Whether `text` is one of the fixed words of the command's grammar
    /// (an option with its value counts when the value is a plain one).
    pub fn is_fixed(self, text: &str) -> bool {
        let lower = text.to_ascii_lowercase();
        self.definition()
            .fixed
            .iter()
            .any(|fixed| match fixed.strip_suffix('=') {
                Some(option) => lower.split_once('=').is_some_and(|(name, value)| {
                    name == option
                        && value.len() <= 32
                        && value
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b',')
                }),
                None => lower == *fixed,
            })
    }
}

/// A word as a command word is compared: lowercase, without the
/// punctuation of a sentence after it.
fn without_punctuation(text: &str) -> String {
    text.trim_end_matches(['.', '!', '?', ',', ';', ':'])
        .to_lowercase()
}

/// How many typos a word of this length may hold and still be read as a
/// near miss of a command: none below four letters (`e4`, `Nf3` and
/// short words of prose are too near to everything).
fn typos_allowed(text: &str) -> Option<usize> {
    match text.chars().count() {
        0..=3 => None,
        4..=6 => Some(1),
        _ => Some(2),
    }
}

/// The edit distance with adjacent transpositions counting one (optimal
/// string alignment), for short words only.
fn typo_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() > 16 || b.len() > 16 {
        return usize::MAX;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::parse_line;

    #[test]
    fn every_spelling_belongs_to_one_word() {
        let mut seen = std::collections::HashSet::new();
        for word in Word::ALL {
            for spelling in word.definition().words {
                assert!(seen.insert(*spelling), "{spelling} twice");
                assert_eq!(Word::from_text(spelling), Some(word));
                assert_eq!(Word::from_text(&spelling.to_uppercase()), Some(word));
            }
        }
    }

    /// The table and the parser agree: each example parses, to a command
    /// of its word, with its passwords exactly in the table's places (the
    /// words there replaced by markers), and names a board as the table
    /// says.
    #[test]
    fn each_form_parses_with_its_passwords_where_the_table_says() {
        for word in Word::ALL {
            let definition = word.definition();
            for form in definition.forms {
                let mut words: Vec<String> = form.example.split(' ').map(str::to_string).collect();
                assert_eq!(Word::from_text(&words[0]), Some(word), "{}", form.example);
                let mut markers = Vec::new();
                for (n, place) in form.passwords.iter().enumerate() {
                    let marker = format!("Marker{n}-pw");
                    words[*place] = marker.clone();
                    markers.push(marker);
                }
                let line = words.join(" ");
                let parsed = parse_line(&line)
                    .unwrap_or_else(|| panic!("{line}: no command"))
                    .unwrap_or_else(|e| panic!("{line}: {e}"));
                assert_eq!(parsed.command.word(), word, "{line}");
                assert_eq!(parsed.command.passwords(), markers, "{line}");
                assert_eq!(
                    parsed.command.board().is_some(),
                    definition.names_board,
                    "{line}"
                );
            }
        }
    }

    #[test]
    fn typos_are_near_their_word_and_short_words_are_not() {
        assert_eq!(Word::near("mvoe"), Some(Word::Move));
        assert_eq!(Word::near("Resing."), Some(Word::Resign));
        assert_eq!(Word::near("Standings:"), Some(Word::Ratings));
        assert_eq!(Word::near("tournamnet"), Some(Word::Tournament));
        assert_eq!(Word::near("e4"), None);
        assert_eq!(Word::near("Nice"), None);
    }

    #[test]
    fn a_misspelling_suggests_the_one_command_nearest_to_it() {
        assert_eq!(Word::suggestion("mvoe"), Some(Word::Move));
        assert_eq!(Word::suggestion("Resing."), Some(Word::Resign));
        assert_eq!(Word::suggestion("shwo"), Some(Word::Show));
        assert_eq!(Word::suggestion("chalenge"), Some(Word::Challenge));
        // One typo from `tournament`, two from `tournaments`.
        assert_eq!(Word::suggestion("tournamnet"), Some(Word::Tournament));
        assert_eq!(Word::suggestion("tournamnets"), Some(Word::Tournaments));
    }

    #[test]
    fn no_suggestion_for_a_command_a_tie_or_a_word_near_nothing() {
        // Commands themselves, however written.
        assert_eq!(Word::suggestion("move"), None);
        assert_eq!(Word::suggestion("Standings:"), None);
        // As near to `rating` as to `ratings`.
        assert_eq!(Word::suggestion("ratins"), None);
        // Too short to judge, or near no command.
        assert_eq!(Word::suggestion("mve"), None);
        assert_eq!(Word::suggestion("e4"), None);
        assert_eq!(Word::suggestion("Nice"), None);
        assert_eq!(Word::suggestion("Hello"), None);
        assert_eq!(Word::suggestion(""), None);
    }

    #[test]
    fn fixed_words_and_plain_option_values_are_known() {
        assert!(Word::Set.is_fixed("Compact"));
        assert!(Word::Challenge.is_fixed("--days=3"));
        assert!(Word::Tournament.is_fixed("--tiebreaks=sb,wins"));
        assert!(!Word::Challenge.is_fixed("--days=a b"));
        assert!(!Word::Move.is_fixed("alice-pw"));
    }
}
