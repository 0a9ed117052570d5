//! Finding the player's own words in a reply: what a mail client wrote
//! around them (quoted text, attribution lines, Outlook header blocks,
//! `Original Message` separators, signatures, HTML quote elements) is left
//! out, and so is every line of the mail pbem sent that the reply answers
//! ([`Known`]), whatever the client did to it.
//!
//! Every step is a single pass over the text without recursion or
//! backtracking: a hostile body (thousands of quote markers, a line of a
//! megabyte, HTML nested ten thousand deep) costs time in proportion to
//! its size and nothing more.

use std::collections::HashSet;

/// The lines of a mail pbem sent, kept as short digests: a line of the
/// reply with the same digest is pbem's text, never the player's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    digests: HashSet<u64>,
}

impl Known {
    /// Nothing known (a mail that answers none of pbem's).
    pub fn none() -> Known {
        Known::default()
    }

    /// The lines of a body pbem sends. Left out: lines pbem quoted from
    /// the player (`> `: the player's own words, which they may send
    /// again), and single short words that could be a player's turn
    /// (`e4`, `Nf6,d5`).
    pub fn of_text(body: &str) -> Known {
        let digests = body
            .lines()
            .filter(|line| !line.trim_start().starts_with('>'))
            .filter_map(|line| {
                // The line with its white space collapsed is not built: its
                // digest and length come from the lowercase line, which is
                // trimmed, so white space in it is a space once collapsed.
                let lower = lowercase(unquoted(line).1);
                let (digest, chars, bytes) = collapsed_digest(&lower);
                let could_be_a_turn = !lower
                    .contains(|c: char| c.is_whitespace() || c == '.' || c == ':')
                    && bytes <= 12;
                (chars >= MIN_KNOWN_CHARS && !could_be_a_turn).then_some(digest)
            })
            .collect();
        Known { digests }
    }

    /// Adds the lines of another mail.
    pub fn extend(&mut self, other: Known) {
        self.digests.extend(other.digests);
    }

    /// The digests as bytes, for the store.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut digests: Vec<u64> = self.digests.iter().copied().collect();
        digests.sort_unstable();
        digests.iter().flat_map(|d| d.to_le_bytes()).collect()
    }

    /// Digests read back from the store (a trailing partial digest is
    /// ignored).
    pub fn from_bytes(bytes: &[u8]) -> Known {
        let digests = bytes
            .chunks_exact(8)
            .map(|chunk| u64::from_le_bytes(chunk.try_into().expect("chunks of 8")))
            .collect();
        Known { digests }
    }

    /// Whether pbem sent this line (`lower`: in lowercase, without quote
    /// markers).
    fn contains(&self, lower: &str) -> bool {
        if self.digests.is_empty() {
            return false;
        }
        let (digest, chars, _) = collapsed_digest(lower);
        chars >= MIN_KNOWN_CHARS && self.digests.contains(&digest)
    }
}

/// Lines shorter than this are not remembered as pbem's.
const MIN_KNOWN_CHARS: usize = 3;

/// FNV-1a over a line with its runs of white space made one space (what
/// survives a client's quoting, with quote markers, surrounding space and
/// case), without building that line; and how many characters
/// and bytes it has. FNV-1a is a stable 64-bit digest, fast on short lines: the
/// digests only tell pbem's own lines from the player's, so a chance
/// collision costs one line of the player's, and nobody gains by forging
/// one.
fn collapsed_digest(text: &str) -> (u64, usize, usize) {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut chars = 0;
    let mut bytes = 0;
    let mut feed = |byte: u8| {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        chars += usize::from(byte & 0xC0 != 0x80);
        bytes += 1;
    };
    for (index, word) in text.split_whitespace().enumerate() {
        if index > 0 {
            feed(b' ');
        }
        word.bytes().for_each(&mut feed);
    }
    (hash, chars, bytes)
}

/// Lowercase, cheaply for ASCII (most lines).
fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        text.to_lowercase()
    }
}

/// How many quote markers (`>`, possibly spaced) a line starts with, and
/// the rest of it.
fn unquoted(line: &str) -> (usize, &str) {
    let mut depth = 0;
    let mut rest = line.trim_start();
    while let Some(after) = rest.strip_prefix('>') {
        depth += 1;
        rest = after.trim_start();
    }
    (depth, rest.trim_end())
}

/// The player's own lines of a reply, trimmed, without leading or trailing
/// blank lines. `html` is the HTML body of a mail without a plain-text
/// part; it is read instead of `text`.
pub fn own_words(text: &str, html: Option<&str>, known: &Known) -> Vec<String> {
    let converted;
    let text = match html {
        Some(html) => {
            converted = html_to_text(html);
            converted.as_str()
        }
        None => text,
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut words: Vec<String> = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let (depth, rest) = unquoted(line);
        if depth > 0 {
            index += 1;
            continue;
        }
        let lower = lowercase(rest);
        if is_signature_marker(line) || is_separator(&lower) || header_block_at(&lines, index) {
            break;
        }
        // An attribution, perhaps wrapped over up to three lines.
        let attribution_end = if is_attribution(rest, &lower) {
            Some(index)
        } else if opens_wrapped_attribution(rest) {
            (index + 1..lines.len().min(index + 3))
                .take_while(|&next| !lines[next].trim().is_empty())
                .find(|&next| {
                    let next = unquoted(lines[next]).1;
                    is_attribution(next, &lowercase(next))
                })
        } else {
            None
        };
        if let Some(end) = attribution_end {
            // Its first half may already be among the words when only the
            // second half reads as one (`... пользователь "pbem" <`).
            if end == index
                && index > 0
                && words.last().is_some_and(|w| w == lines[index - 1].trim())
                && is_attribution_head(lines[index - 1])
            {
                words.pop();
            }
            index = end + 1;
            // Bottom posting: quoted text follows, then the player's words.
            // Anything else after an attribution is the original unquoted.
            let next = lines[index..].iter().find(|l| !l.trim().is_empty());
            match next {
                Some(next) if unquoted(next).0 > 0 => continue,
                _ => break,
            }
        }
        if is_mobile_signature(&lower) || is_rule(rest) || known.contains(&lower) {
            index += 1;
            continue;
        }
        words.push(rest.trim().to_string());
        index += 1;
    }
    while words.last().is_some_and(String::is_empty) {
        words.pop();
    }
    let first = words
        .iter()
        .position(|w| !w.is_empty())
        .unwrap_or(words.len());
    words.drain(..first);
    words
}

fn is_signature_marker(line: &str) -> bool {
    line.trim_end_matches(['\r', '\n']) == "-- " || line.trim() == "--"
}

/// `-----Original Message-----` and its kin, in the major languages
/// (`lower`: the line in lowercase).
fn is_separator(lower: &str) -> bool {
    let trimmed = lower.trim();
    if trimmed.len() >= 10 && trimmed.chars().all(|c| c == '_') {
        return true;
    }
    if trimmed == "begin forwarded message:" || trimmed == "anfang der weitergeleiteten nachricht:"
    {
        return true;
    }
    if !(trimmed.starts_with('-') || trimmed.starts_with('_') || trimmed.starts_with('=')) {
        return false;
    }
    const SEPARATORS: &[&str] = &[
        "original message",
        "forwarded message",
        "ursprüngliche nachricht",
        "weitergeleitete nachricht",
        "message d'origine",
        "message d’origine",
        "message transféré",
        "mensaje original",
        "mensaje reenviado",
        "messaggio originale",
        "messaggio inoltrato",
        "oorspronkelijk bericht",
        "doorgestuurd bericht",
        "originalmeddelande",
        "opprinnelig melding",
        "oprindelig meddelelse",
        "alkuperäinen viesti",
        "původní zpráva",
        "oryginalna wiadomość",
        "wiadomość oryginalna",
        "mensagem original",
        "исходное сообщение",
        "пересылаемое сообщение",
        "eredeti üzenet",
        "orijinal mesaj",
        "原始邮件",
        "原始郵件",
        "元のメッセージ",
        "원본 메시지",
    ];
    SEPARATORS.iter().any(|s| trimmed.contains(s))
}

/// Header names that open a quoted mail's header block (From).
const FROM_KEYS: &[&str] = &[
    "from",
    "von",
    "de",
    "van",
    "da",
    "från",
    "fra",
    "от",
    "od",
    "lähettäjä",
    "feladó",
    "kimden",
    "remitente",
    "expéditeur",
    "mittente",
    "nadawca",
    "odesílatel",
    "afzender",
    "发件人",
    "寄件者",
    "差出人",
    "보낸 사람",
];

/// The other header names of such a block.
const HEADER_KEYS: &[&str] = &[
    "sent",
    "date",
    "to",
    "cc",
    "subject",
    "gesendet",
    "datum",
    "an",
    "betreff",
    "envoyé",
    "à",
    "objet",
    "enviado",
    "para",
    "asunto",
    "fecha",
    "inviato",
    "data",
    "a",
    "oggetto",
    "verzonden",
    "aan",
    "onderwerp",
    "skickat",
    "till",
    "ämne",
    "sendt",
    "til",
    "emne",
    "отправлено",
    "дата",
    "кому",
    "тема",
    "wysłano",
    "do",
    "temat",
    "odesláno",
    "komu",
    "předmět",
    "lähetetty",
    "vastaanottaja",
    "aihe",
    "发送时间",
    "收件人",
    "主题",
    "日付",
    "宛先",
    "件名",
    "받는 사람",
    "제목",
];

/// The header name a line starts with (`From:`, `*Sent:*`), lowercase.
fn header_key(line: &str) -> Option<String> {
    let line = line.trim().trim_start_matches('*');
    let colon = line.find([':', '：'])?;
    let key = line[..colon].trim().trim_end_matches('*').trim();
    (!key.is_empty() && key.chars().count() <= 20).then(|| lowercase(key))
}

/// Whether an Outlook-style header block (`From:` then `Sent:`, `To:`,
/// `Subject:` or their translations; Hotmail starts with `Date:`) starts
/// at line `index`.
fn header_block_at(lines: &[&str], index: usize) -> bool {
    let Some(key) = header_key(lines[index]) else {
        return false;
    };
    let is_from = |key: &str| FROM_KEYS.contains(&key);
    if !is_from(&key) && !HEADER_KEYS.contains(&key.as_str()) {
        return false;
    }
    let following: Vec<String> = lines[index + 1..]
        .iter()
        .take(5)
        .filter_map(|line| header_key(unquoted(line).1))
        .filter(|key| is_from(key) || HEADER_KEYS.contains(&key.as_str()))
        .collect();
    if is_from(&key) {
        !following.is_empty()
    } else {
        following.len() >= 2 && following.iter().any(|key| is_from(key))
    }
}

/// The words that end an attribution line (`On ... wrote:`).
const WROTE: &[&str] = &[
    "wrote:",
    "writes:",
    "a écrit :",
    "a écrit:",
    "schrieb:",
    "schreef:",
    "escribió:",
    "ha scritto:",
    "skrev:",
    "napisał:",
    "napisała:",
    "написал:",
    "написала:",
    "написал(а):",
    "kirjoitti:",
    "escreveu:",
    "yazdı:",
    "napsal:",
    "írta:",
    "写道：",
    "写道:",
    "寫道：",
    "のメッセージ:",
    "が書きました:",
    "작성:",
];

/// Whether a line is an attribution (`lower`: the line in lowercase).
fn is_attribution(line: &str, lower: &str) -> bool {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.len() > 400 {
        return false;
    }
    let lower = lower.trim();
    // `26.06.2014, 14:41, "Alexander L" <abc@example.com>:`
    let address_and_colon = trimmed.ends_with(">:") && trimmed.contains('@');
    // `Am 01.03.26 um 12:01 schrieb pbem:`: the name after the verb.
    let opened_verb = trimmed.ends_with(':')
        && OPENERS.iter().any(|o| trimmed.starts_with(o))
        && WROTE_STEMS.iter().any(|stem| lower.contains(stem));
    address_and_colon || opened_verb || WROTE.iter().any(|w| lower.ends_with(w))
}

/// The verbs of [`WROTE`], for attributions that name the writer after
/// them.
const WROTE_STEMS: &[&str] = &[
    " wrote",
    " schrieb ",
    " schreef ",
    " écrit",
    " escribió",
    " scritto",
    " skrev ",
    " napisał",
    " написал",
    " kirjoitti",
    " escreveu",
    " napsal",
];

/// The words that begin an attribution line that may be wrapped in two.
const OPENERS: &[&str] = &[
    "On ",
    "Am ",
    "Le ",
    "El ",
    "Il ",
    "Op ",
    "Den ",
    "Em ",
    "W dniu ",
    "В ",
    "Dne ",
    "Quoting ",
    "Zitat von ",
    "Citando ",
];

fn opens_wrapped_attribution(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.len() <= 400
        && (OPENERS.iter().any(|o| trimmed.starts_with(o)) || trimmed.contains('@'))
}

/// A line of ten dashes or more: decoration, never a command.
fn is_rule(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.len() >= 10 && trimmed.bytes().all(|b| b == b'-')
}

/// Whether a line may be the first half of a wrapped attribution: it
/// ends in an opened address or name, or holds an address or a time.
fn is_attribution_head(line: &str) -> bool {
    let trimmed = line.trim();
    let has_time = trimmed.as_bytes().windows(5).any(|w| {
        w[0].is_ascii_digit()
            && w[1].is_ascii_digit()
            && w[2] == b':'
            && w[3].is_ascii_digit()
            && w[4].is_ascii_digit()
    });
    trimmed.ends_with(['<', '"']) || trimmed.contains('@') || has_time
}

/// `Sent from my iPhone` and its kin: a line a phone adds (`lower`: the
/// line in lowercase).
fn is_mobile_signature(lower: &str) -> bool {
    let lower = lower.trim();
    if lower.is_empty() || lower.len() > 80 {
        return false;
    }
    const PREFIXES: &[&str] = &[
        "sent from my ",
        "sent from mail for ",
        "sent from yahoo mail",
        "sent from outlook",
        "sent from samsung",
        "sent with ",
        "sent via ",
        "get outlook for ",
        "von meinem ",
        "gesendet von ",
        "envoyé de mon ",
        "envoyé depuis ",
        "enviado desde mi ",
        "enviado do meu ",
        "inviato da ",
        "verzonden vanaf mijn ",
        "verstuurd vanaf mijn ",
        "skickat från min ",
        "sendt fra min ",
        "отправлено с ",
        "wysłane z ",
    ];
    PREFIXES.iter().any(|p| {
        lower.strip_prefix(p).is_some_and(|device| {
            // `Sent from my desk, is much easier` is a sentence.
            !device.contains(',') && device.split_whitespace().count() <= 4
        })
    })
}

/// The text of an HTML body, without the quoted mail: `blockquote`
/// elements, Gmail's `gmail_quote`, Yahoo's `yahoo_quoted` and
/// Thunderbird's `moz-cite-prefix` are skipped; Outlook's reply header
/// (`divRplyFwdMsg`, or the bordered `div` above `From:`) ends the text.
pub fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    // The element being skipped, and how deep in elements of its name.
    let mut skipping: Option<(String, usize)> = None;
    let mut rest = html;
    while !rest.is_empty() {
        let Some(open) = rest.find('<') else {
            if skipping.is_none() {
                push_text(&mut out, rest);
            }
            break;
        };
        if skipping.is_none() {
            push_text(&mut out, &rest[..open]);
        }
        rest = &rest[open..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        // A `<` that no `>` follows ends the markup: the rest is no text.
        let Some(end) = rest.find('>') else {
            break;
        };
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        let closing = tag.starts_with('/');
        let tag = tag.trim_start_matches('/');
        let name_end = tag
            .find(|c: char| c.is_whitespace() || c == '/')
            .unwrap_or(tag.len());
        let name = tag[..name_end].to_ascii_lowercase();
        if let Some((skipped, depth)) = &mut skipping {
            if *skipped == name {
                if closing {
                    *depth -= 1;
                    if *depth == 0 {
                        skipping = None;
                    }
                } else if !tag.ends_with('/') {
                    *depth += 1;
                }
            }
            continue;
        }
        if closing {
            if is_block(&name) {
                out.push('\n');
            }
            continue;
        }
        let attributes = tag[name_end..].to_ascii_lowercase();
        if name == "style" || name == "script" || name == "head" || name == "title" {
            let close = format!("</{name}");
            let lower_rest_end = find_ignore_case(rest, &close);
            rest = lower_rest_end.map_or("", |at| &rest[at..]);
            continue;
        }
        let outlook_header = attributes.contains("divrplyfwdmsg")
            || attributes.contains("appendonsend")
            || (name == "div"
                && attributes.contains("border-top:solid")
                && attributes.contains("padding:3"));
        if outlook_header {
            break;
        }
        let quote = name == "blockquote"
            || attributes.contains("gmail_quote")
            || attributes.contains("yahoo_quoted")
            || attributes.contains("moz-cite-prefix");
        if quote && !tag.ends_with('/') {
            skipping = Some((name, 1));
            continue;
        }
        if is_block(&name) {
            out.push('\n');
        }
    }
    out
}

fn is_block(name: &str) -> bool {
    matches!(
        name,
        "br" | "p"
            | "div"
            | "tr"
            | "li"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "hr"
            | "table"
            | "pre"
            | "blockquote"
    )
}

/// The byte offset of `needle` (ASCII) in `haystack`, any case.
fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    let needle = needle.as_bytes();
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
}

/// Appends HTML text with its entities decoded and its white space as a
/// browser shows it (runs of spaces and newlines are one space).
fn push_text(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '&'
            && let Some(end) = rest.bytes().take(12).position(|b| b == b';')
            && let Some(decoded) = entity(&rest[1..end])
        {
            out.push(decoded);
            rest = &rest[end + 1..];
            continue;
        }
        if c.is_whitespace() {
            if !out.ends_with([' ', '\n']) && !out.is_empty() {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
}

fn entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        _ => {
            let number = name.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code)?
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `Known::of_text` keeps of a line, from the line normalized as
    /// a string (quote markers, surrounding space and case taken away,
    /// runs of white space made one space).
    fn kept_by_building(line: &str) -> Option<u64> {
        let lower = lowercase(unquoted(line).1);
        let line = lower.split_whitespace().collect::<Vec<_>>().join(" ");
        let could_be_a_turn = !line.contains([' ', '.', ':']) && line.len() <= 12;
        let (digest, chars, _) = collapsed_digest(&line);
        (chars >= MIN_KNOWN_CHARS && !could_be_a_turn).then_some(digest)
    }

    #[test]
    fn known_lines_are_those_of_the_normalized_line() {
        let lines = [
            "e4",
            "Nf6,d5",
            "  > quoted line",
            "It is White's turn (turn #3).",
            "a\tb",
            "Ab\u{b}cd",
            "x  y",
            "1.e4",
            "Ke2:",
            "abcdefghijkl",
            "abcdefghijklm",
            "ÄÖÜäöü",
            "ÉCHEC  ET  MAT",
            "\u{3000}wide\u{3000}space",
            "İstanbul",
            "ab",
            "a b",
            "\t \u{a0}Board 101\u{a0}",
        ];
        let body = lines.join("\n");
        let expected: HashSet<u64> = lines
            .iter()
            .filter(|line| !line.trim_start().starts_with('>'))
            .filter_map(|line| kept_by_building(line))
            .collect();
        assert!(expected.len() > 8, "the lines test both sides");
        assert_eq!(Known::of_text(&body).digests, expected);
    }

    fn words(text: &str) -> Vec<String> {
        own_words(text, None, &Known::none())
    }

    #[test]
    fn quotes_attributions_and_signatures_are_left_out() {
        assert_eq!(
            words("Nf6,d5\nNice one!\n\nOn Mon, 1 Jan 2026, pbem wrote:\n> Summary\n"),
            ["Nf6,d5", "Nice one!"]
        );
        assert_eq!(words("e4\n\n-- \nAlice\n> quoted"), ["e4"]);
        assert_eq!(words("e4\n\nSent from my iPhone\n"), ["e4"]);
    }

    #[test]
    fn an_attribution_wrapped_over_two_lines_is_left_out() {
        assert_eq!(
            words(
                "e4\n\nOn Sun, 1 Mar 2026 at 12:01, pbem <pbem+101.2.abc@localhost>\nwrote:\n> x\n"
            ),
            ["e4"]
        );
        assert_eq!(
            words(
                "e4\n02.04.2012 14:20 пользователь \"bob@x.org\" <\nbob@x.org> написал:\n\n> Hi\n"
            ),
            ["e4"]
        );
    }

    #[test]
    fn bottom_posting_keeps_the_words_below_the_quote() {
        assert_eq!(
            words("On 04/02/2012 06:26 PM, pbem wrote:\n> Summary\n> more\n\nNf6\n"),
            ["Nf6"]
        );
    }

    #[test]
    fn outlook_blocks_and_separators_end_the_words() {
        assert_eq!(
            words(
                "d5\n\nFrom: pbem [mailto:pbem@localhost]\nSent: Monday\nTo: bob\nSubject: x\n\nSummary"
            ),
            ["d5"]
        );
        assert_eq!(
            words("d5\n*Von:* pbem\n*Gesendet:* Montag\n*An:* bob\n"),
            ["d5"]
        );
        assert_eq!(words("d5\n----- Original Message -----\nSummary"), ["d5"]);
        assert_eq!(
            words("d5\n________________________________\nFrom: x"),
            ["d5"]
        );
    }

    #[test]
    fn lines_pbem_sent_are_never_the_players() {
        let known = Known::of_text(
            "Summary of Chess Board 101\nIt is bob's turn (turn #2):\ne4\n1.e4\n> Nice game",
        );
        let known = Known::from_bytes(&known.to_bytes());
        assert_eq!(
            own_words(
                "d5\n  Summary of Chess   Board 101\nIt is bob's turn (turn #2):\ne4\n1.e4\nNice game\n",
                None,
                &known
            ),
            ["d5", "e4", "Nice game"],
            "a turn and the player's own quoted words are never taken for pbem's"
        );
    }

    #[test]
    fn html_quotes_are_skipped() {
        let html = "<div>e4<br>Good luck</div><div class=\"gmail_quote\"><div>On x wrote:</div>\
                    <blockquote><div><blockquote>deep</blockquote></div>Summary</blockquote></div>\
                    <p>after &amp; more</p>";
        assert_eq!(
            own_words("", Some(html), &Known::none()),
            ["e4", "Good luck", "", "after & more"]
        );
        let outlook = "<p>d5</p><div style=\"border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in\"><p><b>From:</b> pbem</p></div><p>Summary</p>";
        assert_eq!(own_words("", Some(outlook), &Known::none()), ["d5"]);
    }

    #[test]
    fn hostile_bodies_end_quickly() {
        let markers = ">".repeat(10_000) + " x\n";
        assert!(words(&markers.repeat(10)).is_empty());
        let long = "a".repeat(1 << 20);
        assert_eq!(words(&long).len(), 1);
        let nested = "<div>".repeat(50_000) + "e4" + &"</div>".repeat(50_000);
        assert_eq!(own_words("", Some(&nested), &Known::none()), ["e4"]);
        let quotes = "<blockquote>".repeat(50_000) + "x";
        assert!(own_words("", Some(&quotes), &Known::none()).is_empty());
        let open = "<".repeat(100_000);
        own_words("", Some(&open), &Known::none());
        let entities = "&#".repeat(100_000);
        own_words("", Some(&entities), &Known::none());
    }
}
