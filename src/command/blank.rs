//! Blanking passwords where pbem quotes a mail back (answers, error
//! mails, the reasons of refusals), by the command table's password
//! places. pbem never quotes a password back: the answer goes to a From
//! that may be forged, and mail is kept in many places.
//!
//! The rule, for each quoted line:
//! - A word that is (or, from 3 characters, holds) a password of any line
//!   of the mail that parsed is blanked, wherever it stands.
//! - A line that parsed is blanked at its own password places when its
//!   userid and password logged in. Otherwise (the login failed, or the
//!   command has no login but a password: `signup`) its words may be out
//!   of place, and it counts as mistaken.
//! - A mistaken line (one that starts with a command word, or a near miss
//!   of one, and does not parse, or whose login did not succeed) may be a
//!   form of its command with a word missing or too many, two words
//!   swapped, or userid and password added at its end: every word from
//!   the place before the first password place of any form it may be
//!   meant as is blanked, to the end of the line, except the fixed words
//!   of the command's grammar (`board`, `compact`, `--white`, `1-0`). The
//!   command word, a sub-command and what comes before the userid (a board
//!   number, an event name) stay, so the answer still says which line.
//!   A password two or more places before its place (two words missing
//!   in front of it) is not recognised. A mistaken line of a form without
//!   password (`show`, `tournament standings`) is blanked after the words
//!   of the form's example (a login written where none is taken).
//! - A line that does not start with a command word or a near miss is
//!   only blanked of the mail's passwords.
//! - The userid of the player whose address sent the mail stays (the
//!   answer goes to that player), unless it is a password of the mail.
//! - A reason quoting the line's words (`"x" is not a board number`) is
//!   blanked of every word blanked in the line and every password of the
//!   mail; a plain lowercase word or one under 3 characters only where
//!   the reason quotes it (pbem's own words are such: `wrong userid or
//!   password for "wrong"`), one of 6 characters or more with other
//!   characters even inside another word.

use super::{Word, parse_line};
use crate::rules::Variant;

/// What stands in a quote for a blanked word.
pub const BLANK: &str = "********";

/// Secrets shorter than this are blanked only as whole words (a password
/// `e4` must not blank every word holding an `e4`), and in a reason only
/// where it quotes them.
const HELD_FROM: usize = 3;

/// Blanked words from this many characters (not plain lowercase words)
/// are blanked in a reason even inside other words.
const INSIDE_FROM: usize = 6;

/// What one mail's quotes must not show.
#[derive(Clone, Debug, Default)]
pub struct Blanking {
    /// The passwords of every line of the mail that parsed.
    secrets: Vec<String>,
    /// The userids (as written) that logged in with this mail.
    logged_in: Vec<String>,
    /// The userid of the player whose address sent the mail: the answer
    /// goes to that player, whose userid is no secret to them (and
    /// saying so tells a stranger nothing).
    own_userid: Option<String>,
    /// Whether the mail's reply token proved a player: only then is a
    /// command written without its login (`tournament start spring`) in
    /// its place; without a token such a line may hold a login where the
    /// reply form has free text.
    by_token: bool,
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
            own_userid: None,
            by_token: false,
        }
    }

    /// The blanking for lines of a mail whose passwords are `secrets`
    /// and no login is known to have succeeded.
    pub fn of_secrets(secrets: Vec<String>) -> Blanking {
        Blanking {
            secrets,
            logged_in: Vec::new(),
            own_userid: None,
            by_token: false,
        }
    }

    /// Notes the userid of the player whose address sent the mail: a
    /// mistaken line keeps it (unless it is a password of the mail).
    pub fn with_own_userid(mut self, userid: Option<String>) -> Blanking {
        self.own_userid = userid;
        self
    }

    /// Notes whether the mail's reply token proved a player.
    pub fn with_token(mut self, by_token: bool) -> Blanking {
        self.by_token = by_token;
        self
    }

    /// Notes the userids that logged in with the mail so far.
    pub fn set_logged_in(&mut self, logged_in: Vec<String>) {
        self.logged_in = logged_in;
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
        let mut hidden: Vec<bool> = words.iter().map(|word| self.is_secret(word)).collect();
        if let Some(from) = self.mistaken_from(line, words) {
            for (index, hide) in hidden.iter_mut().enumerate().skip(from.place) {
                if !from.word.is_fixed(words[index]) && !self.is_own_userid(words[index]) {
                    *hide = true;
                }
            }
        }
        hidden
    }

    fn is_own_userid(&self, word: &str) -> bool {
        self.own_userid
            .as_deref()
            .is_some_and(|own| own.eq_ignore_ascii_case(word))
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
        assert_eq!(
            quoted("mvoe 101 bob hunter2 Kxc6"),
            "mvoe 101 ******** ******** ********"
        );
        assert_eq!(quoted("move"), "move");
        // The login did not succeed: the words may be out of place.
        assert_eq!(
            quoted("move 101 alice-pw alice e4"),
            "move 101 ******** ******** ********"
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
            "show 101 ******** ******** ********"
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
        assert_eq!(plain.line("vacation 5"), "vacation ********");
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
    fn the_sender_s_own_userid_stays_unless_it_is_a_password() {
        let own = Blanking::default().with_own_userid(Some("alice".into()));
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
        let swapped = Blanking::of_mail(["draw 101 bob-pw alice"], Vec::new())
            .with_own_userid(Some("alice".into()));
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
}
