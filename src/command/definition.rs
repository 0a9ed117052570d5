//! What a command's definition holds: its words, its forms (the usage
//! text, where its passwords stand, an example), how it works in a reply
//! to a mail of pbem's, whether it names a board, and the fixed words of
//! its grammar. Each command states its own [`Definition`] in its home
//! (`command/<name>.rs`, as [`super::MailCommand::DEFINITION`]); the parser
//! dispatches on [`Word`], the password blanking ([`super::blank`]) reads
//! the password places, the reply reader the reply forms, and a test checks
//! that every form's example parses with its passwords where it says.
//!
//! This file holds what is common to all of them: the types, and how a
//! written word is matched to a command (exactly, or as a near miss).

use super::Word;

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
    /// Whether the command is a player's action in a game (a turn,
    /// `draw`, `resign`, `accept`, ...): a proven player's mail of such
    /// commands alone is carried out even when pbem's total ceiling on the
    /// mail it sends is used up; its board mails then wait in the outbox
    /// for the next hour (see `service::charge`).
    pub game_action: bool,
    /// The fixed words of its grammar besides the command word
    /// (sub-commands, options, preference names and values), lowercase:
    /// never a password in a line's blanked quote. An option taking a
    /// value is listed as `--name=`.
    pub fixed: &'static [&'static str],
}

impl Form {
    /// A form of a command without sub-commands.
    pub const fn new(
        usage: &'static str,
        passwords: &'static [usize],
        example: &'static str,
    ) -> Form {
        Form {
            usage,
            sub: &[],
            passwords,
            example,
        }
    }

    /// A form of some sub-commands (`tournament enter|leave`).
    pub const fn of_sub(
        usage: &'static str,
        sub: &'static [&'static str],
        passwords: &'static [usize],
        example: &'static str,
    ) -> Form {
        Form {
            usage,
            sub,
            passwords,
            example,
        }
    }
}

impl Word {
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
