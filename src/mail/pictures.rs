//! Board pictures drawn when a mail is sent, not when it is queued.
//!
//! A queued mail is its complete MIME message except for the pictures:
//! the body of each inline PNG part is a placeholder (random bytes, which
//! lettre writes in base64 as it would the PNG, so the placeholder is one
//! base64 line of [`TOKEN_CHARS`] characters, the token), and the outbox
//! row describes each picture on a line of its own:
//!
//! `<token> <viewer w|b> <board FEN field> <marked squares|-> <check square|-> <Content-ID>`
//!
//! e.g. `q3Jd0xk1E5mXbT2c w rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR e7,e5 - board-101-2-w@pbem.example`.
//! [`complete`] draws each picture and puts its PNG, base64-encoded as
//! lettre encodes a body (lines of 76 characters joined by CRLF, no CRLF
//! after the last), in the token's place, so the mail sent is byte for
//! byte the one lettre builds with the picture inside. The database so
//! holds about 4.5 KB per board mail instead of 35 KB, written twice (the
//! write-ahead log, then the database); only the sent mail carries the
//! picture.
//!
//! The token is random, so no text a player writes into a mail (a comment
//! shown under the board) can pass for it. A description that cannot be
//! drawn (a corrupt row) costs only its picture: its placeholder part is
//! taken out of the mail, the mail is sent without it, and the failure is
//! logged.

use std::borrow::Cow;
use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use memchr::memmem;
use shakmaty::{Board, Color, Square};

use crate::render::picture::{self, Scene};

/// Random bytes behind a token: 96 bits, as many as a Message-ID's.
pub const TOKEN_BYTES: usize = 12;
/// The length of a token: [`TOKEN_BYTES`] in base64, no padding.
pub const TOKEN_CHARS: usize = TOKEN_BYTES / 3 * 4;
/// The most pictures drawn into one mail: a folded answer shows a board
/// per command, 16 at most. More lines come only from a corrupt row; they
/// are not drawn, so the work per mail stays bounded.
pub const MAX_PICTURES: usize = 64;
/// The most squares one picture marks (two moves of a two-move turn, a
/// castling king's own squares: four; a little room besides).
const MAX_MARKED: usize = 8;

/// A picture of a queued mail: where it goes and what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The base64 line standing for the picture in the queued message.
    pub token: String,
    pub scene: Scene,
    /// The picture's Content-ID (for the log).
    pub content_id: String,
}

/// The token of `placeholder`, the placeholder body of a picture part:
/// what lettre writes for it.
pub fn token_of(placeholder: &[u8; TOKEN_BYTES]) -> String {
    BASE64.encode(placeholder)
}

/// The characters of a line of a base64 body, as lettre writes it.
const BASE64_LINE: usize = 76;

/// `bytes` in base64 as lettre writes a body, appended to `out`: lines of
/// [`BASE64_LINE`] characters joined by CRLF. Encoded at once and then cut
/// into lines: encoding line by line, as lettre's encoder does, took twice
/// the time (the sender's profile in the service benchmark).
fn push_base64(bytes: &[u8], out: &mut Vec<u8>) {
    let encoded = BASE64.encode(bytes);
    let mut lines = encoded.as_bytes().chunks(BASE64_LINE);
    if let Some(first) = lines.next() {
        out.extend_from_slice(first);
    }
    for line in lines {
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(line);
    }
}

/// The description of `placed`, one line each, as the outbox keeps it.
pub fn describe(placed: &[Placed]) -> String {
    let mut text = String::new();
    for picture in placed {
        let scene = &picture.scene;
        let squares: Vec<String> = scene.marked.iter().map(Square::to_string).collect();
        // Writing to a String cannot fail.
        let _ = writeln!(
            text,
            "{} {} {} {} {} {}",
            picture.token,
            if scene.viewer == Color::White {
                'w'
            } else {
                'b'
            },
            scene.board.board_fen(),
            if squares.is_empty() {
                "-".to_string()
            } else {
                squares.join(",")
            },
            scene
                .check
                .map_or("-".to_string(), |square| square.to_string()),
            picture.content_id,
        );
    }
    text
}

/// Why a line of a description cannot be drawn.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Corrupt {
    #[error("the line has too few fields")]
    Fields,
    #[error("the token is not {TOKEN_CHARS} characters of base64")]
    Token,
    #[error("the viewer is neither w nor b")]
    Viewer,
    #[error("the board is not a FEN board field")]
    Board,
    #[error("a marked square or the check square is not a square")]
    Square,
    #[error("the placeholder is not in the message")]
    Placeholder,
}

/// Whether `text` has a token's shape: [`TOKEN_CHARS`] characters of
/// base64 (so it cannot be found anywhere but in a placeholder's place).
fn is_token(text: &str) -> bool {
    text.len() == TOKEN_CHARS
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// One line of a description.
pub fn parse_line(line: &str) -> Result<Placed, Corrupt> {
    let mut fields = line.splitn(6, ' ');
    let mut field = || fields.next().ok_or(Corrupt::Fields);
    let token = field()?;
    let viewer = field()?;
    let board = field()?;
    let marked = field()?;
    let check = field()?;
    let content_id = field()?;
    if !is_token(token) {
        return Err(Corrupt::Token);
    }
    let viewer = match viewer {
        "w" => Color::White,
        "b" => Color::Black,
        _ => return Err(Corrupt::Viewer),
    };
    let board = Board::from_ascii_board_fen(board.as_bytes()).map_err(|_| Corrupt::Board)?;
    let square = |text: &str| Square::from_ascii(text.as_bytes()).map_err(|_| Corrupt::Square);
    let marked = match marked {
        "-" => Vec::new(),
        list => {
            let squares = list.split(',').map(square).collect::<Result<Vec<_>, _>>()?;
            if squares.len() > MAX_MARKED {
                return Err(Corrupt::Square);
            }
            squares
        }
    };
    let check = match check {
        "-" => None,
        text => Some(square(text)?),
    };
    Ok(Placed {
        token: token.to_string(),
        scene: Scene {
            board,
            viewer,
            marked,
            check,
        },
        content_id: content_id.to_string(),
    })
}

/// The message of outbox mail `outbox_id` as it is sent: with each picture
/// of `description` drawn in place of its placeholder. Without a
/// description the stored message is complete already. A picture that
/// cannot be drawn is left out (its placeholder part removed) and logged;
/// the rest of the mail goes.
pub fn complete<'m>(outbox_id: i64, message: &'m [u8], description: Option<&str>) -> Cow<'m, [u8]> {
    let Some(description) = description else {
        return Cow::Borrowed(message);
    };
    // Each picture drawn makes a new copy; the stored message is only read.
    let mut message = Cow::Borrowed(message);
    let lines: Vec<&str> = description
        .lines()
        .filter(|line| !line.is_empty())
        .collect();
    if lines.len() > MAX_PICTURES {
        tracing::error!(
            outbox_id,
            pictures = lines.len(),
            "a queued mail describes more than {MAX_PICTURES} pictures; the rest are not drawn"
        );
    }
    for line in lines.into_iter().take(MAX_PICTURES) {
        match draw_into(&message, line) {
            Ok(drawn) => message = Cow::Owned(drawn),
            Err((error, without)) => {
                tracing::error!(
                    outbox_id,
                    picture = line,
                    "a board picture of a queued mail cannot be drawn: {error}; the mail is sent without it"
                );
                if let Some(without) = without {
                    message = Cow::Owned(without);
                }
            }
        }
    }
    message
}

/// `message` with the picture of description line `line` drawn in; or why
/// not, with the message without the placeholder's part if it was found.
fn draw_into(message: &[u8], line: &str) -> Result<Vec<u8>, (Corrupt, Option<Vec<u8>>)> {
    let token = line.split(' ').next().unwrap_or_default();
    if !is_token(token) {
        return Err((Corrupt::Token, None));
    }
    let Some(at) = placeholder_at(message, token) else {
        return Err((Corrupt::Placeholder, None));
    };
    let placed =
        parse_line(line).map_err(|error| (error, without_part(message, at, token.len())))?;
    let png = picture::png(&placed.scene);
    // Base64 takes 4 characters for 3 bytes, and a CRLF for every 57.
    let encoded_len = png.len().div_ceil(3).saturating_mul(4) + png.len() / 57 * 2;
    let mut drawn = Vec::with_capacity(message.len().saturating_add(encoded_len));
    drawn.extend_from_slice(&message[..at]);
    push_base64(&png, &mut drawn);
    drawn.extend_from_slice(&message[at + token.len()..]);
    Ok(drawn)
}

/// Where the body line `token` is in `message`: a line of its own, as
/// the body of a part (after its headers' blank line).
fn placeholder_at(message: &[u8], token: &str) -> Option<usize> {
    let needle = format!("\r\n\r\n{token}\r\n");
    Some(memmem::find(message, needle.as_bytes())? + 4)
}

/// `message` without the MIME part whose body is the `len` bytes at `at`:
/// from the CRLF before its boundary line to the CRLF before the next
/// boundary. `None` if the part has no boundaries around it.
fn without_part(message: &[u8], at: usize, len: usize) -> Option<Vec<u8>> {
    let end = at + len;
    let start = memmem::rfind(&message[..at], b"\r\n--")?;
    let next = end + memmem::find(&message[end..], b"\r\n--")?;
    let mut without = message[..start].to_vec();
    without.extend_from_slice(&message[next..]);
    Some(without)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(token: &str) -> Placed {
        Placed {
            token: token.to_string(),
            scene: Scene {
                board: Board::new(),
                viewer: Color::Black,
                marked: vec![Square::E2, Square::E4],
                check: Some(Square::E8),
            },
            content_id: "board-101-2-b@pbem.example".to_string(),
        }
    }

    #[test]
    fn base64_is_written_as_lettre_writes_it() {
        let png = picture::png(&placed("").scene);
        for bytes in [
            &[][..],
            &[1],
            &[1, 2, 3],
            &[7; 57],
            &[7; 58],
            &[9; 114],
            &png,
        ] {
            let mut ours = Vec::new();
            push_base64(bytes, &mut ours);
            let mut lettres = String::new();
            email_encoding::body::base64::encode(bytes, &mut lettres).expect("encoded");
            assert_eq!(String::from_utf8(ours).expect("ASCII"), lettres);
        }
        let placeholder = [5; TOKEN_BYTES];
        let mut lettres = String::new();
        email_encoding::body::base64::encode(&placeholder, &mut lettres).expect("encoded");
        assert_eq!(token_of(&placeholder), lettres);
    }

    #[test]
    fn a_description_reads_back_as_written() {
        let token = token_of(&[7; TOKEN_BYTES]);
        assert_eq!(token.len(), TOKEN_CHARS);
        let mut quiet = placed(&token);
        quiet.scene.marked.clear();
        quiet.scene.check = None;
        quiet.scene.viewer = Color::White;
        let pictures = [placed(&token), quiet];
        let text = describe(&pictures);
        assert_eq!(
            text.lines().next(),
            Some(
                "BwcHBwcHBwcHBwcH b rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR e2,e4 e8 board-101-2-b@pbem.example"
            )
        );
        let read: Vec<Placed> = text
            .lines()
            .map(|line| parse_line(line).expect("parses"))
            .collect();
        assert_eq!(read, pictures);
    }

    #[test]
    fn corrupt_lines_are_refused_not_drawn() {
        let good = describe(&[placed(&token_of(&[1; TOKEN_BYTES]))]);
        let good = good.trim_end();
        assert!(parse_line(good).is_ok());
        let fields: Vec<&str> = good.split(' ').collect();
        let with = |index: usize, value: &str| {
            let mut changed = fields.clone();
            changed[index] = value;
            changed.join(" ")
        };
        assert_eq!(parse_line(""), Err(Corrupt::Fields));
        assert_eq!(parse_line(&fields[..5].join(" ")), Err(Corrupt::Fields));
        assert_eq!(parse_line(&with(0, "short")), Err(Corrupt::Token));
        assert_eq!(parse_line(&with(0, "ÄÄÄÄÄÄÄÄ")), Err(Corrupt::Token));
        assert_eq!(parse_line(&with(1, "x")), Err(Corrupt::Viewer));
        assert_eq!(parse_line(&with(2, "rnbqkbnr/zzz")), Err(Corrupt::Board));
        assert_eq!(parse_line(&with(3, "e2,e9")), Err(Corrupt::Square));
        assert_eq!(
            parse_line(&with(3, &["a1"; 9].join(","))),
            Err(Corrupt::Square)
        );
        assert_eq!(parse_line(&with(4, "")), Err(Corrupt::Square));
    }

    #[test]
    fn a_picture_that_cannot_be_drawn_takes_its_part_out_of_the_mail() {
        let token = token_of(&[9; TOKEN_BYTES]);
        let message = format!(
            "Content-Type: multipart/related; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/html\r\n\r\n<p>hi</p>\r\n--B\r\nContent-ID: <c@x>\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n{token}\r\n--B--\r\n"
        );
        let corrupt = format!("{token} x - - - c@x");
        let sent = complete(1, message.as_bytes(), Some(&corrupt));
        assert_eq!(
            String::from_utf8_lossy(&sent),
            "Content-Type: multipart/related; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/html\r\n\r\n<p>hi</p>\r\n--B--\r\n"
        );
        // More lines than pictures a mail may have: the rest are not looked at.
        let line = describe(&[placed(&token)]);
        let many = format!("{}{line}", "x\n".repeat(MAX_PICTURES));
        let sent = complete(1, message.as_bytes(), Some(&many));
        assert_eq!(&*sent, message.as_bytes());
        let sent = complete(1, message.as_bytes(), Some(&line));
        assert!(sent.len() > message.len() + 10_000, "drawn");
        // Only a token is looked for: not a boundary line, say.
        let sent = complete(1, message.as_bytes(), Some("--B x - - - c@x"));
        assert_eq!(&*sent, message.as_bytes());
        // A line whose placeholder is not there changes nothing.
        let other = describe(&[placed(&token_of(&[3; TOKEN_BYTES]))]);
        let sent = complete(1, message.as_bytes(), Some(&other));
        assert_eq!(&*sent, message.as_bytes());
    }
}
