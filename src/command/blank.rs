//! Blanking passwords where pbem quotes a mail back (answers, error
//! mails, the reasons of refusals), by the command definitions' password
//! places. pbem never quotes a password back: the answer goes to a From
//! that may be forged, and mail is kept in many places. It blanks
//! nothing else: a player must see which word of theirs was wrong.
//!
//! The rule, for each quoted line:
//! - A word that is (or, from 3 characters, holds) a password of any line
//!   of the mail that parsed is blanked, wherever it stands: in a command,
//!   a reply form, prose.
//! - A line that parsed is blanked only so when its userid and password
//!   logged in, or when it is a reply form (a short form a reply token
//!   speaks for: `draw`, `if d6 Nc4`, `extend 2`, `chat good luck`),
//!   which holds no password. Otherwise (the login failed, or the command
//!   has no login but a password: `signup`) its words may be out of
//!   place, and it counts as mistaken.
//! - A mistaken line (one that starts with a command word, or a near miss
//!   of one, and does not parse, or whose login did not succeed) may be a
//!   form of its command with a word missing or too many, two words
//!   swapped, or userid and password added at its end: a password may
//!   stand anywhere from the place before the first password place of any
//!   form it may be meant as, to the end of the line. The command word, a
//!   sub-command and what comes before the userid (a board number, an
//!   event name) stay, so the answer still says which line. A password
//!   two or more places before its place (two words missing in front of
//!   it) is not recognised. A mistaken line of a form without password
//!   (`show`, `tournament standings`) may hold one after the words of the
//!   form's example (a login written where none is taken).
//! - In those places a word is blanked unless it cannot be a password
//!   written there: a turn (`Nxe4`, `e5,d5`, `e4#3`), a number (`101`,
//!   `#101`, `101#3`, up to 7 digits: a password has 8 characters by
//!   default), an option of the language with any value (`--time`,
//!   `--time=30+1/45`), a fixed word of the command's grammar (`board`,
//!   `compact`, `1-0`), a variant name, or a name the store knows (a
//!   player's userid, an event's, a ladder's; the service finds them,
//!   [`Blanking::name_candidates`]).
//! - A line that does not start with a command word or a near miss is
//!   only blanked of the mail's passwords.
//! - A reason quoting the line's words (`"x" is not a board number`) is
//!   blanked of every word blanked in the line and every password of the
//!   mail; a plain lowercase word or one under 3 characters only where
//!   the reason quotes it (pbem's own words are such: `wrong userid or
//!   password for "wrong"`), one of 6 characters or more with other
//!   characters even inside another word.

use std::collections::HashSet;

use super::{Word, parse_line, split_guard};
use crate::rules::Variant;
use crate::rules::notation::parse_turn;

/// What stands in a quote for a blanked word.
pub const BLANK: &str = "********";

/// Secrets shorter than this are blanked only as whole words (a password
/// `e4` must not blank every word holding an `e4`), and in a reason only
/// where it quotes them.
const HELD_FROM: usize = 3;

/// Blanked words from this many characters (not plain lowercase words)
/// are blanked in a reason even inside other words.
const INSIDE_FROM: usize = 6;

/// A number of up to this many digits (a board, a turn, days) is never
/// blanked; a longer one may be a password (8 characters by default).
const NUMBER_DIGITS: usize = 7;

/// No turn is longer (a double move with captures, checks and a guard).
const TURN_CHARS: usize = 40;

/// What one mail's quotes must not show.
#[derive(Clone, Debug, Default)]
pub struct Blanking {
    /// The passwords of every line of the mail that parsed.
    secrets: Vec<String>,
    /// The userids (as written) that logged in with this mail.
    logged_in: Vec<String>,
    /// Whether the mail's reply token proved a player: only then is a
    /// command written without its login (`tournament start spring`) in
    /// its place; without a token such a line may hold a login where the
    /// reply form has free text.
    by_token: bool,
    /// The lines (words one space apart) the mail's reader read as reply
    /// forms: they hold no password.
    replies: HashSet<String>,
    /// The words (lowercase) the store knows as a userid, an event or a
    /// ladder: never blanked but as a password of the mail.
    names: HashSet<String>,
}

impl Blanking {
    /// The blanking for a mail of `lines` (its Subject without reply
    /// prefixes, and its own words), whose commands logged in as the
    /// userids `logged_in`.
    pub fn of_mail<'a>(
        lines: impl IntoIterator<Item = &'a str>,
        logged_in: impl IntoIterator<Item = String>,
    ) -> Blanking {
        let mut secrets: Vec<String> = Vec::new();
        for line in lines {
            if let Some(Ok(parsed)) = parse_line(line) {
                for password in parsed.command.passwords() {
                    if !password.is_empty() && !secrets.iter().any(|s| s == password) {
                        secrets.push(password.to_string());
                    }
                }
            }
        }
        Blanking {
            secrets,
            logged_in: logged_in.into_iter().collect(),
            ..Blanking::default()
        }
    }

    /// The blanking for lines of a mail whose passwords are `secrets`
    /// and no login is known to have succeeded.
    pub fn of_secrets(secrets: Vec<String>) -> Blanking {
        Blanking {
            secrets,
            ..Blanking::default()
        }
    }

    /// Notes whether the mail's reply token proved a player.
    pub fn with_token(mut self, by_token: bool) -> Blanking {
        self.by_token = by_token;
        self
    }

    /// Notes the lines the mail's reader read as reply forms (as
    /// written): they are blanked of the mail's passwords only.
    pub fn with_replies(mut self, replies: impl IntoIterator<Item = impl AsRef<str>>) -> Blanking {
        self.replies
            .extend(replies.into_iter().map(|line| spaced(line.as_ref())));
        self
    }

    /// Notes the words the store knows as a userid, an event or a ladder
    /// (any case): a mistaken line keeps them.
    pub fn with_names(mut self, names: impl IntoIterator<Item = impl AsRef<str>>) -> Blanking {
        self.names.extend(
            names
                .into_iter()
                .map(|name| name.as_ref().to_ascii_lowercase()),
        );
        self
    }

    /// Notes the userids that logged in with the mail so far.
    pub fn set_logged_in(&mut self, logged_in: Vec<String>) {
        self.logged_in = logged_in;
    }

    /// The words of `lines` that are blanked unless the store knows them
    /// as a name: what the service looks up for [`Blanking::with_names`].
    /// Each once, lowercase, in order.
    pub fn name_candidates<'a>(&self, lines: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut candidates: Vec<String> = Vec::new();
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            for (word, open) in words.iter().zip(self.open_places(line, &words)) {
                if open && !self.is_secret(word) {
                    let word = word.to_ascii_lowercase();
                    if !candidates.contains(&word) {
                        candidates.push(word);
                    }
                }
            }
        }
        candidates
    }

    /// `line` as quoted back: its words, one space apart, the blanked
    /// ones as [`BLANK`].
    pub fn line(&self, line: &str) -> String {
        let words: Vec<&str> = line.split_whitespace().collect();
        let hidden = self.hidden(line, &words);
        words
            .iter()
            .zip(&hidden)
            .map(|(word, hide)| if *hide { BLANK } else { word })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A text about `line` (the reason it was refused), blanked of every
    /// word blanked in the line and of every password of the mail.
    pub fn message(&self, line: &str, message: &str) -> String {
        let words: Vec<&str> = line.split_whitespace().collect();
        let hidden = self.hidden(line, &words);
        let mut secrets: Vec<&str> = words
            .iter()
            .zip(&hidden)
            .filter(|(_, hide)| **hide)
            .flat_map(|(word, _)| [*word, word.trim_matches(|c: char| !c.is_alphanumeric())])
            .chain(self.secrets.iter().map(String::as_str))
            .filter(|secret| !secret.is_empty() && *secret != BLANK)
            .collect();
        // The longest first: a secret inside another is blanked with it.
        secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
        let mut text = message.to_string();
        for secret in &secrets {
            text = replace_ignoring_case(&text, secret, Bounds::Word);
        }
        // A longer word is blanked even inside another (`--days=x`
        // lowercased and glued), where a short one would be a syllable.
        for secret in &secrets {
            text = replace_ignoring_case(&text, secret, Bounds::Anywhere);
        }
        text
    }

    /// Which words of `line` are blanked.
    fn hidden(&self, line: &str, words: &[&str]) -> Vec<bool> {
        words
            .iter()
            .zip(self.open_places(line, words))
            .map(|(word, open)| {
                self.is_secret(word) || (open && !self.names.contains(&word.to_ascii_lowercase()))
            })
            .collect()
    }

    /// Which words of `line` stand where a password may, and may be one
    /// by their look: blanked unless the store knows them as a name.
    fn open_places(&self, line: &str, words: &[&str]) -> Vec<bool> {
        let mut open = vec![false; words.len()];
        if self.replies.contains(&spaced(line)) {
            return open;
        }
        if let Some(from) = self.mistaken_from(line, words) {
            for (index, open) in open.iter_mut().enumerate().skip(from.place) {
                *open = !cannot_be_a_password(from.word, words[index]);
            }
        }
        open
    }

    fn is_secret(&self, word: &str) -> bool {
        self.secrets.iter().any(|secret| {
            word == secret
                || (secret.chars().count() >= HELD_FROM && word.contains(secret.as_str()))
        })
    }

    /// Where a mistaken line's blanked words begin, and its command.
    fn mistaken_from(&self, line: &str, words: &[&str]) -> Option<Mistaken> {
        let start = usize::from(
            words.first().is_some_and(|w| w.parse::<Variant>().is_ok())
                && words.get(1).is_some_and(|w| Word::near(w).is_some()),
        );
        let word = Word::near(words.get(start)?)?;
        if let Some(Ok(parsed)) = parse_line(line) {
            let in_place = match parsed.command.credentials() {
                Some((userid, _)) => self.logged_in.iter().any(|u| u == userid),
                // Nothing proves where a `signup`'s password stands; a
                // command in its reply form stands in place only when a
                // reply token proved its player.
                None => {
                    parsed.command.passwords().is_empty()
                        && (self.by_token
                            || !word
                                .forms_for(words.get(start + 1).copied())
                                .iter()
                                .any(|form| !form.passwords.is_empty()))
                }
            };
            if in_place {
                return None;
            }
        }
        let forms = word.forms_for(words.get(start + 1).copied());
        let place = match forms
            .iter()
            .flat_map(|form| form.passwords.iter().copied())
            .min()
        {
            Some(first) => first.saturating_sub(1).max(1),
            // A command without password may still be written with a
            // login it does not take: what follows its own words.
            None => forms
                .iter()
                .map(|form| form.example.split(' ').count())
                .max()?,
        };
        Some(Mistaken {
            word,
            place: start + place,
        })
    }
}

/// A mistaken line: its command, and the first blanked word's index.
struct Mistaken {
    word: Word,
    place: usize,
}

/// `line`'s words one space apart, as lines are compared.
fn spaced(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `text`, in a line of `command`, is a word no password is
/// taken for where it stands: a turn, a number, an option, a fixed word
/// of the command, a variant.
fn cannot_be_a_password(command: Word, text: &str) -> bool {
    command.is_fixed(text)
        || is_option(text)
        || is_number(text)
        || is_turn(text)
        || text.parse::<Variant>().is_ok()
}

/// `--name` or `--name=value` for an option some command takes.
fn is_option(text: &str) -> bool {
    let name = text.split_once('=').map_or(text, |(name, _)| name);
    if !name.starts_with("--") {
        return false;
    }
    Word::ALL.iter().any(|word| {
        word.definition()
            .fixed
            .iter()
            .any(|fixed| fixed.trim_end_matches('=').eq_ignore_ascii_case(name))
    })
}

/// A board or turn number (`101`, `#101`, `101#3`), days (`-2` too, as
/// a refusal quotes it), a count.
fn is_number(text: &str) -> bool {
    let text = text.strip_prefix('-').unwrap_or(text);
    let digits = |s: &str| {
        !s.is_empty() && s.len() <= NUMBER_DIGITS && s.bytes().all(|b| b.is_ascii_digit())
    };
    let text = text.strip_prefix('#').unwrap_or(text);
    match text.split_once('#') {
        Some((board, turn)) => digits(board) && digits(turn),
        None => digits(text),
    }
}

/// A turn as players write it (`Nxe4`, `e5,d5`, `2.Nf3`, `e4#3`), also
/// with the comma or stop of a sentence after it.
fn is_turn(text: &str) -> bool {
    if text.len() > TURN_CHARS {
        return false;
    }
    let (turn, _) = split_guard(text.trim_end_matches([',', ';', '.']));
    !turn.is_empty() && parse_turn(&turn).is_ok_and(|moves| !moves.is_empty())
}

/// Where [`replace_ignoring_case`] finds a secret.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bounds {
    /// Between characters that are not letters or digits; a plain
    /// lowercase word (`wrong`, `the`) or a short one (`a`, `td`) only
    /// where it is quoted (within `"..."`, or after `'` or `=`), since
    /// pbem's own words are such words and pbem quotes what it repeats.
    Word,
    /// Anywhere, even inside another word; never a plain lowercase word.
    Anywhere,
}

/// `text` with every occurrence of `secret` (ASCII case ignored) within
/// `bounds` as [`BLANK`].
fn replace_ignoring_case(text: &str, secret: &str, bounds: Bounds) -> String {
    let lower_text = text.to_ascii_lowercase();
    let lower_secret = secret.to_ascii_lowercase();
    // pbem's own words are plain lowercase words, or short (`a`, `is`).
    let plain =
        secret.bytes().all(|b| b.is_ascii_lowercase()) || secret.chars().count() < HELD_FROM;
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(found) = lower_text[at..].find(&lower_secret) {
        let begin = at + found;
        let end = begin + lower_secret.len();
        let before = text[..begin].chars().next_back();
        let after = text[end..].chars().next();
        let bounded = match bounds {
            Bounds::Anywhere => !plain && secret.chars().count() >= INSIDE_FROM,
            Bounds::Word => {
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
                    && (!plain
                        || before.is_some_and(|c| matches!(c, '\'' | '='))
                        || text[..begin].matches('"').count() % 2 == 1)
            }
        };
        out.push_str(&text[at..begin]);
        out.push_str(if bounded { BLANK } else { &text[begin..end] });
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(line: &str) -> String {
        Blanking::default().line(line)
    }

    #[test]
    fn a_well_formed_line_loses_only_its_passwords() {
        let blanking = Blanking::of_mail(
            [
                "move 101 alice s3cret e4",
                "password alice old-pw new-pw",
                "signup bob bob-pw bob@example.org",
            ],
            ["alice".to_string()],
        );
        assert_eq!(
            blanking.line("move 101 alice s3cret e4"),
            "move 101 alice ******** e4"
        );
        assert_eq!(
            blanking.line("Chess2 move 101  alice\ts3cret e4"),
            "Chess2 move 101 alice ******** e4"
        );
        assert_eq!(
            blanking.line("password alice old-pw new-pw"),
            "password alice ******** ********"
        );
        // Nothing proves a signup's words in place.
        assert_eq!(
            blanking.line("signup bob bob-pw bob@example.org"),
            "signup ******** ******** ********"
        );
        assert_eq!(blanking.line("my s3cret plan"), "my ******** plan");
        assert_eq!(blanking.line("Nice game!"), "Nice game!");
    }

    #[test]
    fn a_mistaken_line_loses_everything_from_before_its_password_place() {
        assert_eq!(
            quoted("tournament enter spring alice alice-pw now"),
            "tournament enter spring ******** ******** ********"
        );
        assert_eq!(
            quoted("subscribe 101 ann ann-pw now"),
            "subscribe 101 ******** ******** ********"
        );
        // A turn is no password.
        assert_eq!(
            quoted("mvoe 101 bob hunter2 Kxc6"),
            "mvoe 101 ******** ******** Kxc6"
        );
        assert_eq!(quoted("move"), "move");
        // The login did not succeed: the words may be out of place.
        assert_eq!(
            quoted("move 101 alice-pw alice e4"),
            "move 101 ******** ******** e4"
        );
        // The grammar's own words stay.
        assert_eq!(quoted("set board alice-pw"), "set board ********");
        assert_eq!(
            quoted("set board compact alice alice-pw"),
            "set board compact ******** ********"
        );
        assert_eq!(
            quoted("challenge alice-pw bob --white --days=3"),
            "challenge ******** ******** --white --days=3"
        );
        // Commands without passwords lose what follows their own words.
        assert_eq!(quoted("games alice nxet"), "games alice ********");
        assert_eq!(quoted("games alice all"), "games alice all");
        assert_eq!(
            quoted("show 101 alice alice-pw e4"),
            "show 101 ******** ******** e4"
        );
        assert_eq!(
            quoted("tournament standings spring alice alice-pw"),
            "tournament standings spring ******** ********"
        );
        assert_eq!(quoted("help chess3"), "help chess3");
    }

    #[test]
    fn a_reply_form_stands_in_place_only_in_a_reply_and_a_new_password_never_shows() {
        let lines = [
            "vacation 5",
            "challenge bob --white",
            "address alice@example.org",
            "password new-secret",
        ];
        let by_token = Blanking::of_mail(lines, Vec::new()).with_token(true);
        assert_eq!(by_token.line("vacation 5"), "vacation 5");
        assert_eq!(
            by_token.line("challenge bob --white"),
            "challenge bob --white"
        );
        assert_eq!(
            by_token.line("address alice@example.org"),
            "address alice@example.org"
        );
        assert_eq!(by_token.line("password new-secret"), "password ********");
        // Without a token the words may be a login where the reply form
        // has its own.
        let plain = Blanking::of_mail(lines, Vec::new());
        // A number is no password, in a reply form or not.
        assert_eq!(plain.line("vacation 5"), "vacation 5");
        assert_eq!(
            plain.line("challenge bob --white"),
            "challenge ******** --white"
        );
        assert_eq!(plain.line("password new-secret"), "password ********");
        assert_eq!(
            quoted("vacation alice-pw"),
            "vacation ********",
            "a mistaken reply form"
        );
    }

    #[test]
    fn a_known_userid_stays_unless_it_is_a_password() {
        let own = Blanking::default().with_names(["alice"]);
        assert_eq!(
            own.line("draw 101 Alice guess-1"),
            "draw 101 Alice ********"
        );
        assert_eq!(
            own.message(
                "draw 101 alice guess-1",
                "wrong userid or password for \"alice\""
            ),
            "wrong userid or password for \"alice\""
        );
        let swapped =
            Blanking::of_mail(["draw 101 bob-pw alice"], Vec::new()).with_names(["alice"]);
        assert_eq!(
            swapped.line("draw 101 bob-pw alice"),
            "draw 101 ******** ********"
        );
    }

    #[test]
    fn a_reason_is_blanked_of_the_line_s_blanked_words() {
        let blanking = Blanking::default();
        assert_eq!(
            blanking.message(
                "set alice board alice-pw compact",
                "set: \"alice-pw\" is not a preference; the command is: set <userid> <password> board"
            ),
            "set: \"********\" is not a preference; the command is: set <userid> <password> board"
        );
        assert_eq!(
            blanking.message(
                "move 101 Alice-PW alice e4",
                "wrong userid or password for \"alice-pw\""
            ),
            "wrong userid or password for \"********\""
        );
        assert_eq!(
            replace_ignoring_case("the password \"pw\"", "pw", Bounds::Word),
            "the password \"********\""
        );
        assert_eq!(
            replace_ignoring_case("x--days=hunter2x", "hunter2", Bounds::Anywhere),
            "x--days=********x"
        );
        assert_eq!(
            replace_ignoring_case("unexpected words: \"y hunter\"", "hunter", Bounds::Word),
            "unexpected words: \"y ********\""
        );
        // pbem's own words stay; what it quotes is blanked.
        assert_eq!(
            blanking.message(
                "tournament create td wrong cup2 chess",
                "wrong userid or password for \"wrong\""
            ),
            "wrong userid or password for \"********\""
        );
    }

    /// The words the store knows in the tests below.
    const NAMES: [&str; 6] = ["alice", "bob", "td", "mal", "spring", "top"];

    fn known() -> Blanking {
        Blanking::default().with_names(NAMES)
    }

    #[test]
    fn a_parsed_line_s_password_is_blanked_wherever_it_appears() {
        let lines = [
            "move 101 alice Secret-pw e4",
            "I typed Secret-pw above",
            "if d6 Secret-pw",
            "show 101 secret-pw2 Secret-pw",
        ];
        let blanking = Blanking::of_mail(lines, ["alice".to_string()])
            .with_names(NAMES)
            .with_replies(["if d6 Secret-pw"]);
        assert_eq!(
            blanking.line("move 101 alice Secret-pw e4"),
            "move 101 alice ******** e4"
        );
        // In prose, in a reply form, in another command, inside a word.
        assert_eq!(
            blanking.line("I typed Secret-pw above"),
            "I typed ******** above"
        );
        assert_eq!(blanking.line("if d6 Secret-pw"), "if d6 ********");
        assert_eq!(
            blanking.line("show 101 secret-pw2 Secret-pw"),
            "show 101 ******** ********"
        );
        assert_eq!(blanking.line("xSecret-pwx"), "********");
        // And in a reason about any line.
        assert_eq!(
            blanking.message("if d6 Secret-pw", "\"Secret-pw\" is not a turn"),
            "\"********\" is not a turn"
        );
        // Even where it looks like a turn, a number or a known name.
        let odd = Blanking::of_mail(["move 101 alice Nf3 e4", "move 101 bob spring e4"], [])
            .with_names(NAMES);
        assert_eq!(odd.line("if d6 Nf3 Nxe4"), "if d6 ******** Nxe4");
        assert_eq!(
            odd.line("tournament enter spring bob x"),
            "tournament enter ******** bob ********"
        );
    }

    #[test]
    fn an_unparsed_line_loses_only_words_in_its_password_places() {
        let blanking = known();
        // A misspelled sub-command: any form's places; the event and the
        // userid stay.
        assert_eq!(
            blanking.line("tournament entre spring alice alice-pw"),
            "tournament entre spring alice ********"
        );
        // A word too many after the login.
        assert_eq!(
            blanking.line("tournament enter spring alice alice-pw now"),
            "tournament enter spring alice ******** ********"
        );
        // The userid missing: the password one place early.
        assert_eq!(
            blanking.line("move 101 alice-pw e4"),
            "move 101 ******** e4"
        );
        // Userid and password swapped, the login failed: the line parsed,
        // and a known userid read as its password is blanked as one.
        let swapped = "resign 101 alice-pw alice";
        assert_eq!(
            Blanking::of_mail([swapped], [])
                .with_names(NAMES)
                .line(swapped),
            "resign 101 ******** ********"
        );
        // A login added to a form without one.
        assert_eq!(
            blanking.line("show 101 compact alice alice-pw"),
            "show 101 compact alice ********"
        );
        // Before the places (the board, an event) nothing is blanked.
        assert_eq!(
            quoted("tournament enter nosuch x"),
            "tournament enter nosuch ********"
        );
    }

    #[test]
    fn turns_numbers_options_fixed_words_and_known_names_are_never_blanked() {
        let blanking = known();
        // The mistyped `--time 3` of a challenge.
        let line = "challenge alice alice-pw bob --time 3";
        assert!(matches!(parse_line(line), Some(Err(_))), "{line} parses");
        assert_eq!(blanking.line(line), "challenge alice ******** bob --time 3");
        assert_eq!(
            blanking.message(
                line,
                "challenge: --time needs a control: write D (D days per turn, e.g. 3)"
            ),
            "challenge: --time needs a control: write D (D days per turn, e.g. 3)"
        );
        // Options with any value, of this command or another.
        assert_eq!(
            blanking
                .line("challenge alice alice-pw bob --time=30+1/45 --days=3 --white --reach=x x"),
            "challenge alice ******** bob --time=30+1/45 --days=3 --white --reach=x ********"
        );
        // Turns, with a guard, move numbers or a comma; numbers.
        assert_eq!(
            blanking.line("if 101 alice 1...d6 2.Nc4 Nxe4, e5,d5 O-O e4#3"),
            "if 101 alice 1...d6 2.Nc4 Nxe4, e5,d5 O-O e4#3"
        );
        assert_eq!(
            blanking.line("extend 101 bob-pw 2 #101 101#3 1234567"),
            "extend 101 ******** 2 #101 101#3 1234567"
        );
        // A long run of digits may be a password.
        assert_eq!(
            blanking.line("extend 101 alice 20240917 2 x"),
            "extend 101 alice ******** 2 ********"
        );
        // Fixed words, variants, known names in any case.
        assert_eq!(
            blanking.line("set alice alice-pw board compact now"),
            "set alice ******** board compact ********"
        );
        assert_eq!(
            blanking.line("tournament create TD td-pw spring chess2 --double x"),
            "tournament create TD ******** spring chess2 --double ********"
        );
        assert_eq!(
            blanking.line("ladder challenge top Alice alice-pw Bob now"),
            "ladder challenge top Alice ******** Bob ********"
        );
    }

    #[test]
    fn a_reply_form_loses_only_the_mail_s_passwords() {
        let lines = [
            "if d6 Nc4 Nxe4 Qe2",
            "draw thanks for the game",
            "move 101 alice alice-pw e4",
            "draw my alice-pw",
        ];
        // As the reader gave them, in its spacing.
        let replies = [lines[0], "draw  thanks for the game", lines[3]];
        let blanking = Blanking::of_mail(lines, ["alice".to_string()]).with_replies(replies);
        assert_eq!(blanking.line(lines[0]), "if d6 Nc4 Nxe4 Qe2");
        assert_eq!(
            blanking.message(
                lines[0],
                "the line \"d6 Nc4 Nxe4 Qe2\" is ambiguous: your lines already answer d6 with Nf3"
            ),
            "the line \"d6 Nc4 Nxe4 Qe2\" is ambiguous: your lines already answer d6 with Nf3"
        );
        assert_eq!(blanking.line(lines[1]), "draw thanks for the game");
        assert_eq!(blanking.line(lines[3]), "draw my ********");
        // Not read as a reply form, the same words may hold a login.
        let plain = Blanking::of_mail(lines, ["alice".to_string()]);
        assert_eq!(
            plain.line(lines[1]),
            "draw thanks ******** ******** ********"
        );
    }

    #[test]
    fn a_line_whose_login_failed_keeps_its_known_names() {
        let line = "tournament invite spring td mal-pw mal";
        let blanking = Blanking::of_mail([line], []).with_names(NAMES);
        assert_eq!(
            blanking.line(line),
            "tournament invite spring td ******** mal"
        );
        assert_eq!(
            blanking.message(line, "wrong userid or password for \"td\""),
            "wrong userid or password for \"td\""
        );
        // An unknown userid may be a password out of place.
        let line = "move 101 nobody secret-pw e4";
        let blanking = Blanking::of_mail([line], []).with_names(NAMES);
        assert_eq!(blanking.line(line), "move 101 ******** ******** e4");
        assert_eq!(
            blanking.message(line, "wrong userid or password for \"nobody\""),
            "wrong userid or password for \"********\""
        );
    }

    #[test]
    fn the_service_looks_up_only_words_that_would_be_blanked() {
        let blanking = Blanking::of_mail(["move 101 alice alice-pw e4"], []);
        assert_eq!(
            blanking.name_candidates([
                "challenge alice alice-pw Bob --time 3",
                "tournament entre spring alice x",
                "move 101 alice alice-pw e4",
                "Hello bob",
            ]),
            ["alice", "bob", "spring", "x"]
        );
    }
}
